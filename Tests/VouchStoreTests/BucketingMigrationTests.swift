import Testing
import VouchDomain
import VouchTestSupport
@testable import VouchStore

/// A rollout under way when the database is upgraded (releasing, or paused with its percentage) keeps Unleash's
/// buckets; everything else is on flagd's (docs/decisions.md, "Bucketing flagd agrees with").
struct BucketingMigrationTests {
    @Test(arguments: StoreBackend.allCases)
    func rolloutsUnderWayKeepTheirBucketing(backend: StoreBackend) throws {
        let fixes: [(String, String, Int?)] = [("phased", "releasing", 10), ("phased-paused", "paused", 50), ("released", "released", nil),
                                               ("testing", "testing", nil)]
        try backend.acrossMigration("rollout_bucketing", seed: { database in
            try database.withWriter { connection in
                for (key, state, percentage) in fixes {
                    try connection.query(
                        """
                        INSERT INTO fixes (key, title, ui_area, platforms, wcag, author, revision, state, rollout_percentage, created_at_ms, updated_at_ms)
                        VALUES (?, 'Fix', 'Area', 'ios', '', 'ann', 1, ?, ?, 0, 0)
                        """, [.text(key), .text(state), .optional(percentage)])
                }
            }
        }, check: { database in
            let rows = try database.read { try $0.query("SELECT key, rollout_bucketing FROM fixes ORDER BY key") }
            #expect(rows.map { "\($0.string(0))=\($0.string(1))" } == ["phased=unleash", "phased-paused=unleash", "released=flagd", "testing=flagd"])
        })
    }
}

/// A fix's rollout bucketing is stored, read back, and in the rules the evaluation snapshot is built from.
struct RolloutBucketingStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func bucketingIsKeptAndReachesTheRules(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            var fix = try StoreFixtures.fix()
            fix.state = .releasing
            fix.rolloutPercentage = 20
            fix.rolloutBucketing = .unleash
            _ = try open().createFix(fix, by: "maria")
            let reopened = try open()
            #expect(try reopened.fix(fix.key.rawValue)?.rolloutBucketing == .unleash)
            #expect(try reopened.flagRules().map(\.bucketing) == [.unleash])
            _ = try reopened.updateFix(fix.key.rawValue, action: .fixPause, by: "maria", note: nil) { try $0.applying(.pause, at: StoreFixtures.time) }
            #expect(try reopened.fix(fix.key.rawValue)?.rolloutBucketing == .unleash)
        }
    }
}
