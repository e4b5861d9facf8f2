import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Testers: their personal data, its export and its erasure on withdrawal, on each database.
struct StoreTesterTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    @Test(arguments: StoreBackend.allCases)
    func createdTestersReadBackAndPageByIdInByteOrder(backend: StoreBackend) throws {
        try backend.withStore { store in
            var aiko = StoreFixtures.tester("a-fix", keys: ["user-2", "user-1"])
            aiko.name = "Aiko Tanaka 田中"
            aiko.contact = ""
            aiko.assistiveTech = [AssistiveTechProfile(technology: .voiceover, platform: .ios, version: "18.2"),
                                  AssistiveTechProfile(technology: .talkback, platform: .android)]
            for tester in [aiko, StoreFixtures.tester("_z", keys: []), StoreFixtures.tester("B", keys: [])] {
                _ = try store.createTester(tester, by: "maria")
            }
            let loaded = try #require(try store.tester("a-fix"))
            aiko.targetingKeys.sort()
            #expect(loaded == aiko)
            #expect(try store.tester("nobody") == nil)
            #expect(try store.testers(after: nil, limit: 2).map(\.id) == ["B", "_z"])
            #expect(try store.testers(after: "_z", limit: 2).map(\.id) == ["a-fix"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func updateReplacesPersonalDataAndNewKeysChangeTheRulesOfHerFixes(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            let log = PublicationLog(store.changes)
            let change = try store.updateTester("t_0", by: "maria") { tester in
                var next = tester
                next.name = "Renamed"
                next.targetingKeys = ["tablet-0"]
                next.assistiveTech = []
                return next
            }
            #expect(change.before.targetingKeys == ["user-0"])
            let stored = try #require(try store.tester("t_0"))
            #expect(stored.name == "Renamed")
            #expect(stored.targetingKeys == ["tablet-0"])
            #expect(stored.assistiveTech.isEmpty)
            #expect(try store.flagRules().first?.targetedKeys == ["tablet-0"])
            #expect(log.all.last?.configuration?.flagRuleFixKeys == [key])
            #expect(throws: StoreError.notFound(kind: "tester", id: "nobody")) { try store.updateTester("nobody", by: "maria") { $0 } }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anUpdateWhoseChangeThrowsChangesNothing(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createTester(StoreFixtures.tester("t_0", keys: ["user-0"]), by: "maria")
            let before = try store.tester("t_0")
            #expect(throws: RefusedOnPurpose.self) { try store.updateTester("t_0", by: "maria") { _ in throw RefusedOnPurpose() } }
            #expect(try store.tester("t_0") == before)
            #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).map(\.action) == [.testerCreate])
        }
    }

    /// Withdrawal without purge: the verdicts stay, unlinked; everything that leads to her goes, in the audit too
    /// (the `instr`/`replace` rewrite), while another tester's longer key that starts like hers stays.
    @Test(arguments: StoreBackend.allCases)
    func withdrawalErasesHerDataUnlinksFeedbackAndRewritesTheAudit(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 11)  // t_1 has user-1, t_10 has user-10
            _ = try store.changeTargets(of: key, adding: ["user-1", "user-10"], removing: [], by: "maria", at: time)
            try store.createToken(StoreFixtures.token("tok_t1", role: .tester, testerID: "t_1"), principal: nil, by: "admin")
            var feedback = StoreFixtures.passing("fb_1", by: "t_1")
            feedback.comment = "My name is Aiko"
            feedback.device = "iPhone 15"
            _ = try store.submitFeedback([feedback], by: "maria", idempotency: IdempotencyClaim(principal: "tok_t1", key: "k1", requestSHA256: [1]))
            _ = try store.updateFix(key, action: .fixUpdate, by: "maria", note: "asked by t_1") { $0 }

            let withdrawal = try store.withdrawTester("t_1", purgeFeedback: false, by: "maria", at: time.addingTimeInterval(60))
            #expect(withdrawal.revokedTokenIDs == ["tok_t1"])
            #expect(withdrawal.feedbackUnlinked == 1)
            #expect(withdrawal.feedbackDeleted == 0)
            let tester = try #require(try store.tester("t_1"))
            #expect(tester.status == .withdrawn && tester.name == nil && tester.targetingKeys.isEmpty && tester.assistiveTech.isEmpty)
            #expect(tester.withdrawnAt == time.addingTimeInterval(60))
            let kept = try #require(try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 10).first?.feedback)
            #expect(kept.testerID == nil && kept.comment == nil && kept.device == nil && kept.osVersion == "" && kept.recordedBy == "withdrawn")
            #expect(kept.verdict == .passed)
            #expect(try store.targets(of: key) == ["user-10"])
            #expect(try store.enrolledFixes(of: "t_1").isEmpty)
            #expect(try store.revokedTokenHashes().count == 1)

            let audit = try store.auditEvents(fix: nil, after: nil, limit: 1_000)
            let text = audit.flatMap { [$0.principal, $0.subject, $0.note, $0.before, $0.after].compactMap { $0 } }.joined(separator: "\n")
            #expect(!text.contains("t_1\"") && !text.contains("t_1,") && !text.contains("by t_1"))
            #expect(!text.contains("\"user-1\""))
            #expect(text.contains("\"user-10\""), "a key that merely starts like hers is another tester's")
            #expect(audit.contains { $0.note == "asked by withdrawn" })
            // Her submission's idempotency record went: the same claim is new again, not a replay of her feedback.
            let again = try store.submitFeedback([StoreFixtures.passing("fb_2", by: "t_0")], by: "maria",
                                                 idempotency: IdempotencyClaim(principal: "tok_t1", key: "k1", requestSHA256: [1]))
            #expect(!again.replayed)
            #expect(throws: StoreConflict.self) { try store.withdrawTester("t_1", purgeFeedback: false, by: "maria", at: self.time) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func withdrawalWithPurgeDeletesHerFeedbackOnly(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 2)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_0", by: "t_0")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1a", by: "t_1")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1b", by: "t_1")], by: "maria", idempotency: nil)
            let withdrawal = try store.withdrawTester("t_1", purgeFeedback: true, by: "maria", at: time)
            #expect(withdrawal.feedbackDeleted == 2)
            #expect(withdrawal.feedbackUnlinked == 0)
            #expect(try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 10).map(\.feedback.id) == ["fb_0"])
            #expect(try store.enrollments(of: key).map(\.testerID) == ["t_0"])
            #expect(throws: StoreError.notFound(kind: "tester", id: "nobody")) {
                try store.withdrawTester("nobody", purgeFeedback: true, by: "maria", at: self.time)
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func exportHoldsEverythingStoredAboutHer(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 2)
            try store.createToken(StoreFixtures.token("tok_t0", role: .tester, testerID: "t_0"), principal: nil, by: "admin")
            _ = try store.submitFeedback([StoreFixtures.passing("fb_0", by: "t_0")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1", by: "t_1")], by: "maria", idempotency: nil)
            let export = try store.exportTester("t_0")
            #expect(export.tester == (try store.tester("t_0")))
            #expect(export.enrollments.map(\.fixKey) == [key])
            #expect(export.enrollments.first?.enrolledAt == time)
            #expect(export.feedback == [StoreFixtures.passing("fb_0", by: "t_0")])
            #expect(export.tokens.map(\.id) == ["tok_t0"])
            #expect(throws: StoreError.notFound(kind: "tester", id: "nobody")) { try store.exportTester("nobody") }
        }
    }
}
