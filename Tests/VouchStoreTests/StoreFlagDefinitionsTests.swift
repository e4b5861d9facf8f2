import Testing
import VouchDomain
import VouchIdentity
import VouchTestSupport
@testable import VouchStore

/// What migration 0020 (PostgreSQL 0012) adds, on each database: whether a token was made for flag definitions, kept,
/// read back into its principal and audited; and every token made before the migration goes without (docs/flagd.md).
struct StoreFlagDefinitionsTests {
    @Test(arguments: StoreBackend.allCases)
    func aTokenForFlagdIsKeptSo(backend: StoreBackend) throws {
        try backend.withStore { store in
            var flagd = StoreFixtures.token("tok_flagd", hash: Array(repeating: UInt8(4), count: 32))
            flagd.flagDefinitions = true
            try store.createToken(flagd, principal: (try PrincipalName("flagd-sync", field: "name"), "name"), by: "admin")
            try store.createToken(StoreFixtures.token("tok_app"), principal: (try PrincipalName("ios-app", field: "name"), "name"), by: "admin")
            let active = try store.activeTokens()
            #expect(active.first { $0.id == "tok_flagd" } == flagd)
            #expect(active.first { $0.id == "tok_flagd" }?.principal.allows(.readFlagDefinitions) == true)
            #expect(active.first { $0.id == "tok_app" }?.flagDefinitions == false)
            #expect(active.first { $0.id == "tok_app" }?.principal.allows(.readFlagDefinitions) == false)
            let audited = try store.auditEvents(fix: nil, after: nil, limit: 10).compactMap(\.after)
            #expect(audited.contains { $0.contains(#""flag_definitions":true"#) })
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func tokensMadeBeforeTheMigrationGoWithout(backend: StoreBackend) throws {
        try backend.acrossMigration("flag_definitions", seed: { database in
            try database.withWriter { connection in
                _ = try connection.query("INSERT INTO tokens (id, name, role, secret_sha256, created_by, created_at_ms) VALUES ('tok_old', 'ios-app', 'sdk', ?, 'admin', 0)",
                                         [.blob(Array(repeating: 5, count: 32))])
            }
        }, check: { database in
            let rows = try database.read { try $0.query("SELECT flag_definitions FROM tokens WHERE id = 'tok_old'") }
            #expect(rows.map { $0.int(0) } == [0])
        })
    }
}
