import Foundation
import Testing
@testable import VouchDomain

/// Free text is stored without whitespace or line breaks at its ends, as Foundation trims them; a value that starts
/// and ends with a visible ASCII character skips the trimming and comes back as it was.
struct FeedbackTrimmingTests {
    @Test(arguments: ["18.2", "a", "NHK, button, selected", "x \u{3000} y", "!\u{00A0}?", "\"é\"", "a\u{0301}b"])
    func visibleEndsAreKept(value: String) {
        #expect(FeedbackValidator.trimmedAtEnds(value) == value)
        #expect(FeedbackValidator.trimmedAtEnds(value) == value.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(arguments: [" 18.2", "18.2 ", "\t18.2\r\n", "\u{3000}18.2", "18.2\u{00A0}", "\u{2028}x\u{2029}", "é ", " é", "", "   ", "\u{0085}x"])
    func otherEndsAreTrimmedAsFoundationTrimsThem(value: String) {
        #expect(FeedbackValidator.trimmedAtEnds(value) == value.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
