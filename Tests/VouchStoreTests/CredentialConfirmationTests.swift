import Foundation
import Testing
import VouchDomain
import VouchIdentity
@testable import VouchStore

/// No write commits for a token or personal link whose revocation committed first, on any process sharing the
/// database: each write made for a request confirms its credential inside its own transaction, under the write lock
/// (docs/storage.md, "Revocation across nodes"). Two stores on one database stand for two vouchd.
struct CredentialConfirmationTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    static func requester(_ token: String) -> Requester { Requester(name: "eve", credential: .token(id: token)) }

    @Test(arguments: StoreBackend.allCases)
    func aTokenRevokedThroughOneProcessWritesNothingThroughTheOther(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            try first.createToken(StoreFixtures.token("tok_eve", role: .admin), principal: (try PrincipalName("eve", field: "name"), "name"), by: "admin")
            try first.createToken(StoreFixtures.token("tok_other", role: .admin), principal: nil, by: "admin")
            let eve = Self.requester("tok_eve")
            _ = try second.createFix(try StoreFixtures.fix(), by: eve)
            _ = try first.revokeToken("tok_eve", by: "admin", at: time)

            // The second process has not followed the first: only the database knows, and every kind of write asks it.
            let refusals: [(String, () throws -> Void)] = [
                ("a fix", { _ = try second.createFix(try StoreFixtures.fix("written-after-revocation"), by: eve) }),
                ("a fix's change", { _ = try second.updateFix(self.key, action: .fixUpdate, by: eve, note: nil) { $0 } }),
                ("a token", { try second.createToken(StoreFixtures.token("tok_new", role: .admin), principal: nil, by: eve) }),
                ("targets", { _ = try second.changeTargets(of: self.key, adding: ["qa"], removing: [], by: eve, at: self.time) }),
                ("a tester", { _ = try second.createTester(StoreFixtures.tester("t_9", keys: ["user-9"]), by: eve) }),
                ("a webhook", { try second.createEndpoint(StoreFixtures.endpoint("we_after"), by: eve) }),
                ("a revocation", { _ = try second.revokeToken("tok_other", by: eve, at: self.time) }),
            ]
            for (what, write) in refusals {
                #expect(throws: CredentialEnded.self, "\(what) was written for a revoked token") { try write() }
            }
            #expect(try second.fix("written-after-revocation") == nil)
            #expect(try second.tokens(after: nil, limit: 10).map(\.id).sorted() == ["tok_eve", "tok_other"])
            #expect(try second.tokens(after: nil, limit: 10).first { $0.id == "tok_other" }?.revokedAt == nil)
            // Writes without a credential (vouchd's own) and for other tokens go on.
            _ = try second.createFix(try StoreFixtures.fix("written-by-vouchd"), by: .daemon)
            _ = try second.createFix(try StoreFixtures.fix("written-by-other"), by: Self.requester("tok_other"))
        }
    }

    /// The confirmation travels with the body's first read (docs/storage.md, "Deferred statements"); a body that fails
    /// before reading anything still answers that the credential ended, alone or in a group commit, and stores nothing.
    @Test(arguments: StoreBackend.allCases)
    func aBodyThatFailsBeforeItsFirstReadStillHearsThatTheCredentialEnded(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createToken(StoreFixtures.token("tok_eve", role: .maintainer), principal: nil, by: "admin")
            _ = try store.revokeToken("tok_eve", by: "admin", at: time)
            let eve = Self.requester("tok_eve")
            let failing: @Sendable (any SQLConnection, inout TransactionChanges) throws -> Int = { connection, _ in
                try connection.executeDeferred("INSERT INTO audit_events (at_ms, principal, action, via) VALUES (0, 'eve', 'fix.create', 'api')", [])
                throw RefusedOnPurpose()
            }
            #expect(throws: CredentialEnded.self) { try store.write(by: eve, failing) }
            #expect(throws: CredentialEnded.self) { try store.groupWrite(by: eve, failing) }
            // A body failing on its own for a credential that works keeps its own error.
            #expect(throws: RefusedOnPurpose.self) { try store.write(by: .daemon, failing) }
            #expect(try store.auditEvents(fix: nil, after: nil, limit: 100).allSatisfy { $0.principal != "eve" })
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func feedbackThroughTheGroupCommitIsRefusedForARevokedTesterToken(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            try StoreFixtures.fixInTesting(first, testers: 1)
            try first.createToken(StoreFixtures.token("tok_t0", role: .tester, testerID: "t_0"), principal: nil, by: "admin")
            _ = try first.revokeToken("tok_t0", by: "admin", at: time)
            #expect(throws: CredentialEnded.self) {
                _ = try second.submitFeedback([StoreFixtures.passing("fb_1", by: "t_0")], by: Requester(name: "t_0", credential: .token(id: "tok_t0")),
                                              idempotency: nil)
            }
            #expect(try second.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 10).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRevokedOrExpiredLinkWritesNothing(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            try StoreFixtures.fixInTesting(first, testers: 1)
            let now = Date()
            try first.createTesterLink(TesterLink(id: "l_open", testerID: "t_0", secretSHA256: Array(repeating: 1, count: 32), createdBy: "maria",
                                                  createdAt: now, expiresAt: now.addingTimeInterval(3_600)), by: "maria")
            try first.createTesterLink(TesterLink(id: "l_past", testerID: "t_0", secretSHA256: Array(repeating: 2, count: 32), createdBy: "maria",
                                                  createdAt: now.addingTimeInterval(-7_200), expiresAt: now.addingTimeInterval(-1)), by: "maria")
            let open = Requester(name: "t_0", credential: .link(LinkUse(id: "l_open", createdBy: "maria")))
            let past = Requester(name: "t_0", credential: .link(LinkUse(id: "l_past", createdBy: "maria")))
            var record = StoreFixtures.passing("fb_1", by: "t_0")
            record.link = LinkUse(id: "l_open", createdBy: "maria", openedBy: "maria")
            let stored = try second.submitFeedback([record], by: open, idempotency: nil)
            #expect(stored.records.first?.link == record.link)
            #expect(try second.feedback(of: key, tester: "t_0", revision: 1, after: nil, limit: 1).first?.feedback.link == record.link,
                    "the link, its creator and who opened it are stored with the feedback")
            #expect(try second.auditEvents(fix: key, after: nil, limit: 100).last?.via == "link l_open created by maria",
                    "the audit event says how the tester acted")

            #expect(throws: CredentialEnded.self) {
                _ = try second.submitFeedback([StoreFixtures.passing("fb_2", by: "t_0")], by: past, idempotency: nil)
            }
            _ = try first.revokeTesterLink("l_open", of: "t_0", by: "maria", at: now)
            #expect(throws: CredentialEnded.self) {
                _ = try second.submitFeedback([StoreFixtures.passing("fb_3", by: "t_0")], by: open, idempotency: nil)
            }
        }
    }
}
