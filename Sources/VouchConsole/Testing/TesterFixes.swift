import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchStore

/// What a signed-in tester may read of fixes: only those she is enrolled in. Any other key is "not found", whether
/// or not the fix exists, so the console tells her nothing about fixes that are not hers.
struct TesterFixes {
    let store: any Store

    /// The fix, when she is enrolled in it; otherwise a 404.
    func fix(_ key: String, of testerID: String) throws -> Fix {
        guard try store.enrolledFixes(of: testerID).contains(key), let fix = try store.fix(key) else {
            throw Problem(status: 404, detail: "there is no fix '\(key)' among the fixes you test")
        }
        return fix
    }

    /// The fix, when she is enrolled in it and it takes feedback now; a 409 saying so when it does not.
    func fixTakingFeedback(_ key: String, of testerID: String) throws -> Fix {
        let fix = try fix(key, of: testerID)
        guard Feedback.acceptingStates.contains(fix.state) else {
            throw Problem(status: 409, detail: "feedback on “\(fix.title)” is closed: its state is now “\(Words.state(fix.state))”. Your answers so far are kept")
        }
        return fix
    }

    /// The enrolled fixes that take feedback now, by title.
    func fixesTakingFeedback(of testerID: String) throws -> [Fix] {
        try store.enrolledFixes(of: testerID).compactMap { try store.fix($0) }
            .filter { Feedback.acceptingStates.contains($0.state) }
            .sorted { $0.title.localizedStandardCompare($1.title) == .orderedAscending }
    }

    /// Her latest feedback on the fix's current revision: the one that counts. The store marks it, so this reads
    /// one row per tester, however many she sent.
    func latestFeedback(on fix: Fix, by testerID: String) throws -> Feedback? {
        try store.latestFeedback(of: fix.key.rawValue, revision: fix.revision).first { $0.testerID == testerID }
    }
}
