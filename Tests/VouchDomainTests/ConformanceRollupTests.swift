import Foundation
import Testing
import VouchDomain

/// The levels of an OpenACR report from mixed, failing and missing evidence (docs/evidence.md, "OpenACR").
@Suite struct ConformanceRollupTests {
    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    static func fix(_ key: String, wcag: [String], platforms: [Platform] = [.ios, .android, .web], revision: Int = 1) throws -> Fix {
        var fix = Fix(key: try FixKey(validating: key), title: "Fix \(key)", uiArea: "Checkout", platforms: platforms, wcag: wcag, author: "maria",
                      revision: revision, state: .released, createdAt: time, updatedAt: time)
        fix.revision = revision
        return fix
    }

    static func feedback(_ verdict: Verdict, tester: String?, on platform: Platform = .ios, technology: AssistiveTechnology = .voiceover,
                         os: String = "18.2", browser: Browser? = nil) -> Feedback {
        Feedback(id: "fb_\(tester ?? "gone")\(verdict.rawValue)", fixKey: "x", revision: 1, testerID: tester, platform: platform, osVersion: os,
                 appBuild: "5.4", assistiveTech: technology, browser: browser, verdict: verdict,
                 taskOutcome: verdict == .passed ? .completedIndependently : .notCompleted, severity: verdict == .failed ? .serious : .none,
                 channel: .http, recordedBy: "ana", recordedAt: time)
    }

    static func row(_ rows: [ConformanceRollup.Row], _ number: String, _ component: String) -> ConformanceRollup.Row? {
        rows.first { $0.criterion.number == number && $0.component == component }
    }

    @Test func eachLevelFollowsFromTheLatestVerdicts() throws {
        let rows = ConformanceRollup.rows([
            // 4.1.2: passes on iOS and Android (software), a pass and a failure on the web.
            ConformanceRollup.FixEvidence(fix: try Self.fix("checkout-labels", wcag: ["4.1.2"]), latest: [
                Self.feedback(.passed, tester: "t_a"), Self.feedback(.passed, tester: "t_b", on: .android, technology: .talkback, os: "15"),
                Self.feedback(.passed, tester: "t_c", on: .web, technology: .nvda, os: "Windows 11", browser: .firefox),
                Self.feedback(.failed, tester: "t_d", on: .web, technology: .jaws, os: "Windows 11", browser: .chrome),
            ]),
            // 1.1.1: failed everywhere it was tried; 2.4.3: only testers who could not tell.
            ConformanceRollup.FixEvidence(fix: try Self.fix("poster-alt-text", wcag: ["1.1.1"], revision: 2), latest: [
                Self.feedback(.failed, tester: "t_a"), Self.feedback(.failed, tester: nil),
            ]),
            ConformanceRollup.FixEvidence(fix: try Self.fix("grid-focus", wcag: ["2.4.3"]), latest: [Self.feedback(.cantTell, tester: "t_b")]),
        ])
        #expect(Self.row(rows, "4.1.2", "software")?.level == .supports)
        #expect(Self.row(rows, "4.1.2", "web")?.level == .partiallySupports)
        #expect(Self.row(rows, "1.1.1", "software")?.level == .doesNotSupport)
        // No verdict at all on the web for 1.1.1, and only "could not tell" for 2.4.3: nothing is claimed.
        #expect(Self.row(rows, "1.1.1", "web")?.level == .notEvaluated)
        #expect(Self.row(rows, "2.4.3", "software")?.level == .notEvaluated)
        // Every current criterion of every level has a row per component, and none says supports without evidence.
        #expect(rows.count == WCAGCatalog.criteria.filter { $0.level != "obsolete" }.count * 2)
        #expect(rows.filter { $0.level == .supports }.map(\.criterion.number) == ["4.1.2"])
        #expect(Self.row(rows, "4.1.1", "software") == nil)
        #expect(Self.row(rows, "4.1.2", "software")?.notes
                == "Verified by assistive-technology users on fix checkout-labels (revision 1). Passed: 1 tester with VoiceOver on iOS 18.2, 1 tester with TalkBack on Android 15.")
        #expect(Self.row(rows, "4.1.2", "web")?.notes
                == "Verified by assistive-technology users on fix checkout-labels (revision 1). Passed: 1 tester with NVDA on the web (Firefox). Failed: 1 tester with JAWS on the web (Chrome).")
        #expect(Self.row(rows, "1.1.1", "software")?.notes
                == "Verified by assistive-technology users on fix poster-alt-text (revision 2). Failed: 2 testers with VoiceOver on iOS 18.2.")
        #expect(Self.row(rows, "2.1.1", "web")?.notes == "No tester has verified this criterion in the fixes of this report.")
    }

    @Test func aReleaseOnlyOnTheAppsHasNoWebRows() throws {
        let rows = ConformanceRollup.rows([ConformanceRollup.FixEvidence(fix: try Self.fix("a", wcag: ["4.1.2"], platforms: [.ios]), latest: [])])
        #expect(Set(rows.map(\.component)) == ["software"])
        #expect(rows.allSatisfy { $0.level == .notEvaluated })
    }

    @Test(arguments: [
        ([Verdict.passed, .passed], ConformanceRollup.Level.supports), ([.passed, .failed], .partiallySupports),
        ([.passed, .cantTell], .partiallySupports), ([.failed, .failed], .doesNotSupport), ([.failed, .cantTell], .doesNotSupport),
        ([.cantTell], .notEvaluated), ([], .notEvaluated),
    ])
    func levelOfVerdicts(verdicts: [Verdict], level: ConformanceRollup.Level) {
        #expect(ConformanceRollup.level(verdicts) == level)
    }
}
