import Foundation
import Testing
import VouchDomain
import VouchIdentity
@testable import VouchStore

/// API tokens: only their secret's hash is kept, revocation is audited and remembered, on each database.
struct StoreTokenTests {
    let time = StoreFixtures.time

    func principal(_ name: String) throws -> (name: PrincipalName, field: String) {
        (try PrincipalName(name, field: "name"), "name")
    }

    @Test(arguments: StoreBackend.allCases)
    func tokensKeepOnlyTheHashAndRevocationIsAudited(backend: StoreBackend) throws {
        try backend.withStore { store in
            let token = StoreFixtures.token("tok_1", hash: Array(repeating: UInt8(7), count: 32))
            try store.createToken(token, principal: try principal("ios-app"), by: "admin")
            #expect(try store.activeTokens() == [token])
            let revoked = try store.revokeToken("tok_1", by: "admin", at: time)
            #expect(revoked.revokedAt == time)
            #expect(try store.activeTokens().isEmpty)
            #expect(try store.tokens(after: nil, limit: 10).count == 1)
            #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).map(\.action) == [.tokenCreate, .tokenRevoke])
            #expect(try !store.auditEvents(fix: nil, after: nil, limit: 10).contains { ($0.after ?? "").contains("secret") })
            #expect(throws: StoreError.notFound(kind: "token", id: "tok_2")) { try store.revokeToken("tok_2", by: "admin", at: self.time) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func revokedHashesActiveTokensAndCountFollowRevocation(backend: StoreBackend) throws {
        try backend.withStore { store in
            // Hashes with zero bytes at the start, in the middle and at the end: blobs, never C strings.
            let kept = StoreFixtures.token("tok_kept", hash: [0, 0] + Array(repeating: 0xAB, count: 30))
            let gone = StoreFixtures.token("tok_gone", hash: Array(repeating: 0xCD, count: 15) + [0] + Array(repeating: 0, count: 16))
            try store.createToken(kept, principal: nil, by: "admin")
            try store.createToken(gone, principal: nil, by: "admin")
            #expect(try store.revokedTokenHashes().isEmpty)
            _ = try store.revokeToken("tok_gone", by: "admin", at: time)
            #expect(try store.revokedTokenHashes() == [gone.secretSHA256])
            #expect(try store.activeTokens() == [kept])
            #expect(try store.tokenCount() == 2)
            // Revoking again changes nothing and is not audited twice.
            #expect(try store.revokeToken("tok_gone", by: "admin", at: time.addingTimeInterval(60)).revokedAt == time)
            #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).filter { $0.action == .tokenRevoke }.count == 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aSecondTokenWithTheSameHashIsRefusedAndLeavesNothing(backend: StoreBackend) throws {
        try backend.withStore { store in
            let hash = Array(repeating: UInt8(9), count: 32)
            try store.createToken(StoreFixtures.token("tok_first", hash: hash), principal: try principal("ios-app"), by: "admin")
            let revision = try store.configurationRevision()
            let failure = #expect(throws: (any Error).self) {
                try store.createToken(StoreFixtures.token("tok_copy", hash: hash), principal: try self.principal("android-app"), by: "admin")
            }
            #expect(failure.map { StoreFixtures.isViolation($0, of: .unique) } == true)
            #expect(try store.tokenCount() == 1)
            #expect(try store.configurationRevision() == revision)
            #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).map(\.action) == [.tokenCreate])
            // The principal registered inside the failed transaction went with it: the name is free.
            try store.createToken(StoreFixtures.token("tok_android"), principal: try principal("android-app"), by: "admin")
            #expect(try store.tokenCount() == 2)
        }
    }

    /// A principal stored under the older rule, whose skeleton column still holds a combining dot above, is found by
    /// today's comparison: its plain spelling is refused, and the same name is still the same principal.
    @Test(arguments: StoreBackend.allCases)
    func aPrincipalStoredUnderTheOlderRuleIsComparedByTodays(backend: StoreBackend) throws {
        try backend.withStore { store in
            let dotted = "tok-mainta\u{0069}\u{0307}ner"
            try store.database.write { connection in
                try connection.query("INSERT INTO principals (name, skeleton, created_by, created_at_ms) VALUES (?, ?, 'admin', 0)",
                                     [.text(dotted), .text("tok-rnainta\u{0069}\u{0307}ner")])
            }
            let error = #expect(throws: ValidationFailure.self) {
                try store.createToken(StoreFixtures.token("tok_plain"), principal: try self.principal("tok-maintainer"), by: "admin")
            }
            #expect(error?.errors.first?.message.contains("looks like the existing principal '\(dotted)'") == true, "\(error?.errors ?? [])")
            try store.createToken(StoreFixtures.token("tok_same"), principal: (PrincipalName(stored: dotted), "name"), by: "admin")
            #expect(try store.activeTokens().map(\.id) == ["tok_same"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func tokensPageByIdInByteOrder(backend: StoreBackend) throws {
        try backend.withStore { store in
            for id in ["a-fix", "_z", "B", "a_z"] { try store.createToken(StoreFixtures.token(id), principal: nil, by: "admin") }
            #expect(try store.tokens(after: nil, limit: 2).map(\.id) == ["B", "_z"])
            #expect(try store.tokens(after: "_z", limit: 2).map(\.id) == ["a-fix", "a_z"])
            #expect(try store.tokens(after: "a_z", limit: 2).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aTesterTokenNeedsAnActiveTesterAndTheLastAdminTokenStays(backend: StoreBackend) throws {
        try backend.withStore { store in
            #expect(throws: ValidationFailure([FieldError(field: "tester", message: "no tester 't_nobody'")])) {
                try store.createToken(StoreFixtures.token("tok_t", role: .tester, testerID: "t_nobody"), principal: nil, by: "admin")
            }
            _ = try store.createTester(StoreFixtures.tester("t_aiko", keys: []), by: "maria")
            try store.createToken(StoreFixtures.token("tok_t", role: .tester, testerID: "t_aiko"), principal: nil, by: "admin")
            #expect(try store.activeTokens().map(\.testerID) == ["t_aiko"])

            try store.createToken(StoreFixtures.token("tok_admin", role: .admin), principal: try principal("admin"), by: "admin")
            #expect(throws: StoreConflict.self) { try store.revokeToken("tok_admin", by: "admin", at: self.time) }
            #expect(try store.activeTokens().count == 2)
        }
    }
}
