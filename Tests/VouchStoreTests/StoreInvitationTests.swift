import Foundation
import Synchronization
import Testing
import VouchDomain
@testable import VouchStore

/// Invitations on each database: stored by hash, revoked once, and accepted in one transaction that counts the use,
/// makes the tester with her own consent and enrolls her, never more often than the invitation allows.
struct StoreInvitationTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    func hash(_ first: UInt8) -> [UInt8] { [first, 0] + Array(repeating: first, count: 30) }

    func invitation(_ id: String, uses: Int = 1, fixes: [String] = ["tv-channel-selector-labels"], keys: [String] = []) -> Invitation {
        Invitation(id: id, secretSHA256: hash(UInt8(id.utf8.last ?? 0)), nameHint: "Aiko", targetingKeys: keys, fixKeys: fixes, language: "ja",
                   usesAllowed: uses, createdBy: "maria", createdAt: time, expiresAt: time.addingTimeInterval(3_600))
    }

    func joining(_ id: String, keys: [String] = ["user-77"]) -> (Invitation) throws -> Tester {
        { _ in
            Tester(id: id, name: "Aiko", contact: nil, assistiveTech: [AssistiveTechProfile(technology: .voiceover, platform: .ios, version: "18.2")],
                   targetingKeys: keys, consent: Consent(version: "2026-12", givenAt: self.time, recordedBy: id, givenBy: .tester, language: "ja"),
                   createdAt: self.time, updatedAt: self.time)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func invitationsAreStoredByHashListedAndRevokedOnce(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            try store.createInvitation(invitation("i_2", keys: ["user-1"]), by: "maria")
            try store.createInvitation(invitation("i_1", fixes: []), by: "maria")
            #expect(try store.invitations().map(\.id) == ["i_1", "i_2"], "same creation time: by id")
            #expect(try store.invitation(secretSHA256: hash(UInt8(ascii: "2"))) == invitation("i_2", keys: ["user-1"]))
            #expect(try store.invitation(id: "i_9") == nil)
            #expect(throws: StoreError.notFound(kind: "fix", id: "no-such-fix")) {
                try store.createInvitation(self.invitation("i_3", fixes: ["no-such-fix"]), by: "maria")
            }
            let revoked = try store.revokeInvitation("i_1", by: "mona", at: time.addingTimeInterval(60))
            #expect(revoked.revokedBy == "mona" && revoked.status(at: time) == .revoked)
            #expect(try store.invitation(id: "i_1") == revoked)
            #expect(throws: StoreConflict.self) { try store.revokeInvitation("i_1", by: "mona", at: self.time) }
            #expect(throws: StoreError.notFound(kind: "invitation", id: "i_9")) { try store.revokeInvitation("i_9", by: "mona", at: self.time) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func acceptingMakesHerATesterWithHerOwnConsentAndEnrollsHer(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            try store.createInvitation(invitation("i_1", fixes: [key, "gone-fix"].filter { $0 == key }), by: "maria")
            let accepted = try store.acceptInvitation(secretSHA256: hash(UInt8(ascii: "1")), at: time, makeTester: joining("t_aiko"))
            #expect(accepted.enrolledFixes == [key])
            #expect(accepted.invitation.usesMade == 1)
            let tester = try #require(try store.tester("t_aiko"))
            #expect(tester.consent.givenBy == .tester && tester.consent.language == "ja" && tester.consent.recordedBy == "t_aiko")
            #expect(try store.enrollments(of: key).map(\.testerID) == ["t_aiko"])
            #expect(try store.invitation(id: "i_1")?.status(at: time) == .used)
            // Used up: the next person is refused, and nothing of hers is stored.
            #expect(throws: InvitationClosed()) {
                try store.acceptInvitation(secretSHA256: self.hash(UInt8(ascii: "1")), at: self.time, makeTester: self.joining("t_other"))
            }
            #expect(try store.tester("t_other") == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRefusedOrClosedAcceptanceStoresNothing(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createInvitation(invitation("i_1", fixes: []), by: "maria")
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.acceptInvitation(secretSHA256: self.hash(UInt8(ascii: "1")), at: self.time) { _ in throw Refused() }
            }
            #expect(try store.invitation(id: "i_1")?.usesMade == 0, "a refused answer counts no use")
            #expect(throws: InvitationClosed()) {
                try store.acceptInvitation(secretSHA256: self.hash(UInt8(ascii: "1")), at: self.time.addingTimeInterval(3_600), makeTester: self.joining("t_late"))
            }
            _ = try store.revokeInvitation("i_1", by: "maria", at: time)
            #expect(throws: InvitationClosed()) {
                try store.acceptInvitation(secretSHA256: self.hash(UInt8(ascii: "1")), at: self.time, makeTester: self.joining("t_after"))
            }
            #expect(throws: InvitationClosed()) {
                try store.acceptInvitation(secretSHA256: self.hash(9), at: self.time, makeTester: self.joining("t_unknown"))
            }
            #expect(try store.testers(after: nil, limit: 10).isEmpty)
        }
    }

    /// Two vouchd on one database, eight people accepting an invitation of three uses at once: three join.
    @Test(arguments: StoreBackend.allCases)
    func concurrentAcceptancesNeverExceedTheUses(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            try first.createInvitation(invitation("i_1", uses: 3, fixes: []), by: "maria")
            let joined = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let store = index.isMultiple(of: 2) ? first : second
                if (try? store.acceptInvitation(secretSHA256: hash(UInt8(ascii: "1")), at: time, makeTester: joining("t_\(index)", keys: ["user-\(index)"]))) != nil {
                    joined.withLock { $0 += 1 }
                }
            }
            #expect(joined.withLock { $0 } == 3)
            #expect(try first.testers(after: nil, limit: 20).count == 3)
            #expect(try second.invitation(id: "i_1")?.usesMade == 3)
        }
    }
}
