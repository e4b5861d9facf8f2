import Foundation
import Testing
import VouchDomain
import VouchServices

@Suite struct EARLDocumentTests {
    /// The criterion's identifier is its anchor in the W3C recommendation, as WCAG 2.2 spells it.
    @Test(arguments: [("1.1.1", "non-text-content"), ("4.1.2", "name-role-value"), ("2.4.11", "focus-not-obscured-minimum"),
                      ("1.4.10", "reflow"), ("3.3.4", "error-prevention-legal-financial-data"), ("2.2.2", "pause-stop-hide"),
                      ("2.2.5", "re-authenticating"), ("1.2.3", "audio-description-or-media-alternative-prerecorded")])
    func anchors(number: String, anchor: String) throws {
        let criterion = try #require(WCAGCatalog.criteria.first { $0.number == number })
        #expect(EARLDocument.anchor(criterion) == anchor)
    }

    @Test func outcomesAreEARLs() {
        #expect(Verdict.allCases.map(EARLDocument.outcome) == ["earl:passed", "earl:failed", "earl:cantTell"])
    }
}
