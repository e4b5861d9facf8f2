import Foundation
import Synchronization
import Testing
import VouchDomain
import VouchIdentity
@testable import VouchStore

/// What a store publishes after its writes, and the configuration revision it keeps for other processes.
struct ChangeFeedTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    func sdkToken(_ id: String) -> TokenRecord {
        TokenRecord(id: id, name: id, principalName: "ios-app", role: .sdk, secretSHA256: Array(repeating: UInt8(id.count), count: 32),
                    createdBy: "admin", createdAt: time)
    }

    @Test(arguments: StoreBackend.allCases)
    func revisionsStrictlyIncreaseAndSayWhatChanged(backend: StoreBackend) throws {
        try backend.withStore { store in
            let log = PublicationLog(store.changes)
            #expect(try store.configurationRevision() == 0)
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            _ = try store.changeTargets(of: key, adding: ["qa-device"], removing: [], by: "maria", at: time)
            _ = try store.updateFix(key, action: .fixCriteria, by: "rita", note: nil) { fix in
                var next = fix
                next.criteria.minTestersPassed = 3
                return next
            }
            try store.createToken(sdkToken("tok_a"), principal: (try PrincipalName("ios-app", field: "name"), "name"), by: "admin")
            _ = try store.revokeToken("tok_a", by: "admin", at: time)
            _ = try store.updateFix(key, action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }

            let published = log.all.compactMap(\.configuration)
            #expect(published.map(\.revision) == [1, 2, 3, 4, 5, 6])
            #expect(published.map(\.flagRuleFixKeys) == [[key], [key], [], [], [], [key]])
            #expect(published.map(\.criteriaFixKeys) == [[], [], [key], [], [], []])
            #expect(published.map(\.addedTokenIDs) == [[], [], [], ["tok_a"], [], []])
            #expect(published.map(\.revokedTokenIDs) == [[], [], [], [], ["tok_a"], []])
            // Another process reads back exactly what this one published.
            #expect(try store.configurationChanges(since: 0) == published)
            #expect(try store.configurationChanges(since: 4) == Array(published.suffix(2)))
            #expect(try store.configurationChanges(since: 6).isEmpty)
            #expect(try store.configurationRevision() == 6)
            // A rule carries the revision that produced it, which orders it against rules published out of order.
            let rules = log.all.flatMap(\.changes).compactMap { change -> FlagRule? in
                if case .flagRule(let rule) = change { return rule }
                return nil
            }
            #expect(rules.map(\.version) == [1, 2, 6])
            #expect(rules.map(\.state) == [.draft, .draft, .testing])
            #expect(rules[1].targetedKeys == ["qa-device"])
            #expect(log.all.map(\.revision) == [1, 2, 3, 4, 5, 6])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func writesThatChangeNoFlagTokenOrCriteriaPublishWithoutBumping(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            let revision = try store.configurationRevision()
            let log = PublicationLog(store.changes)
            _ = try store.updateFix(key, action: .fixUpdate, by: "maria", note: nil) { fix in
                var next = fix
                next.title = "Label every channel logo"
                return next
            }
            _ = try store.createTester(StoreFixtures.tester("t_extra", keys: ["user-9"]), by: "maria")
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1", by: "t_0")], by: "maria", idempotency: nil)
            #expect(try store.configurationRevision() == revision)
            #expect(log.all.count == 3)
            #expect(log.all.allSatisfy { $0.revision == revision && $0.configuration == nil && !$0.changesFlagRules })
            #expect(log.feedbackIDs == ["fb_1"])
            // A tester's keys target the fixes she is enrolled in: changing them changes those rules.
            _ = try store.updateTester("t_0", by: "maria") { tester in
                var next = tester
                next.targetingKeys = ["user-0", "tablet-0"]
                return next
            }
            #expect(log.all.last?.configuration?.flagRuleFixKeys == [key])
            #expect(try store.configurationRevision() == revision + 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aWriteThatThrowsPublishesNothingAndLeavesTheRevision(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            let log = PublicationLog(store.changes)
            // The change closure refuses: draft cannot resume.
            #expect(throws: TransitionRefused.self) {
                try store.updateFix(self.key, action: .fixResume, by: "maria", note: nil) { try $0.applying(.resume, at: self.time) }
            }
            // A body that recorded changes, and even a rule, then failed.
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.write(by: "maria") { connection, changes in
                    try connection.query("UPDATE fixes SET title = 'half done' WHERE key = ?", [.text(self.key)])
                    changes.flagRuleChanged(self.key)
                    changes.record(.tokenAdded(self.sdkToken("tok_b")))
                    throw Refused()
                }
            }
            #expect(log.all.isEmpty)
            #expect(try store.configurationRevision() == 1)
            #expect(try store.fix(key)?.title == "Label channel logos")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aFailedCommitPublishesNothingAndLeavesTheRevision(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            try StoreFixtures.failCommits(of: store, afterInsertOn: "configuration_revisions")
            let log = PublicationLog(store.changes)
            let failure = #expect(throws: (any Error).self) {
                try store.createToken(self.sdkToken("tok_c"), principal: (try PrincipalName("ios-app", field: "name"), "name"), by: "admin")
            }
            #expect(failure.map { StoreFixtures.isViolation($0, of: .foreignKey) } == true)
            #expect(log.all.isEmpty)
            #expect(try store.activeTokens().isEmpty)
            #expect(try store.configurationRevision() == 1)
            // The revision a later write reports is still the last one committed, not the one the failed COMMIT took.
            _ = try store.createTester(StoreFixtures.tester("t_after", keys: []), by: "maria")
            #expect(log.all.map(\.revision) == [1])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func groupCommitPublishesEachMemberThatCommittedAndNoOther(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 4)
            _ = try store.createTester(StoreFixtures.tester("t_stranger", keys: []), by: "maria")
            let log = PublicationLog(store.changes)
            let stored = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 40) { index in
                // Every fifth submitter is not enrolled: its savepoint rolls back inside a shared transaction.
                let tester = index % 5 == 4 ? "t_stranger" : "t_\(index % 4)"
                do {
                    let submission = try store.submitFeedback([StoreFixtures.passing("fb_\(index)", by: tester)], by: "maria", idempotency: nil)
                    stored.withLock { $0 += submission.records.map(\.id) }
                } catch {
                    #expect(tester == "t_stranger")
                }
            }
            #expect(stored.withLock { $0.count } == 32)
            #expect(log.feedbackIDs.sorted() == stored.withLock { $0 }.sorted())
            // One publication per successful caller, with its own records only.
            #expect(log.all.count == 32)
            #expect(log.all.allSatisfy { $0.changes.count == 1 && $0.configuration == nil })
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aFailedGroupCommitPublishesNoMemberOfIt(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 4)
            // Feedback from t_3 makes its whole group's COMMIT fail, whoever else it carried.
            try StoreFixtures.failCommits(of: store, afterInsertOn: "feedback", when: "NEW.tester_id = 't_3'")
            let log = PublicationLog(store.changes)
            let stored = Mutex<[String]>([])
            let failedCommits = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 40) { index in
                let tester = "t_\(index % 4)"
                do {
                    let submission = try store.submitFeedback([StoreFixtures.passing("fb_\(index)", by: tester)], by: "maria", idempotency: nil)
                    stored.withLock { $0 += submission.records.map(\.id) }
                } catch {
                    failedCommits.add(1, ordering: .relaxed)
                }
            }
            #expect(failedCommits.load(ordering: .relaxed) >= 10)
            #expect(!stored.withLock { $0 }.contains { Int($0.dropFirst(3))! % 4 == 3 })
            #expect(log.feedbackIDs.sorted() == stored.withLock { $0 }.sorted())
            let kept = try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 100).map(\.feedback.id)
            #expect(kept.sorted() == stored.withLock { $0 }.sorted())
        }
    }
}
