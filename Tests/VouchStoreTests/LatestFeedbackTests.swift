import Foundation
import Testing
import VouchDomain
import VouchTestSupport
@testable import VouchStore

/// Each tester's latest feedback on a fix revision is kept in `latest_feedback` (docs/storage.md, "The latest feedback
/// per tester"): the newest record replaces the tester's earlier one, a withdrawn tester's latest keeps counting with
/// nothing left that names her, and an upgraded database keeps the latest records it had.
struct LatestFeedbackTests {
    private let key = "tv-channel-selector-labels"
    private let time = StoreFixtures.time

    @Test(arguments: StoreBackend.allCases)
    func theNewestRecordOfEachTesterIsTheirLatest(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 3)
            for id in ["fb_0a", "fb_0b", "fb_0c"] {
                _ = try store.submitFeedback([StoreFixtures.passing(id, by: "t_0")], by: "maria", idempotency: nil)
            }
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1a", by: "t_1")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_0d", by: "t_0")], by: "maria", idempotency: nil)
            #expect(try store.latestFeedback(of: key, revision: 1).map(\.id) == ["fb_1a", "fb_0d"])
            #expect(try store.feedbackEvidence(of: key, revision: 1).recordCount == 5)
            #expect(try rows(of: store) == ["t_0 fb_0d", "t_1 fb_1a"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aWithdrawnTestersLatestStillCountsAndNoLongerNamesHer(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 3)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_0", by: "t_0")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1a", by: "t_1")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1b", by: "t_1")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_2", by: "t_2")], by: "maria", idempotency: nil)
            _ = try store.withdrawTester("t_1", purgeFeedback: false, by: "maria", at: time)
            _ = try store.withdrawTester("t_2", purgeFeedback: true, by: "maria", at: time)
            let latest = try store.latestFeedback(of: key, revision: 1)
            #expect(latest.map(\.id) == ["fb_0", "fb_1b"])
            #expect(latest.map(\.testerID) == ["t_0", nil])
            #expect(try rows(of: store) == ["- fb_1b", "t_0 fb_0"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anUpgradedDatabaseKeepsItsLatestRecords(backend: StoreBackend) throws {
        try backend.acrossMigration("latest_feedback", seed: { database in
            try database.withWriter { connection in
                try connection.query(
                    """
                    INSERT INTO fixes (key, title, ui_area, platforms, wcag, author, revision, state, created_at_ms, updated_at_ms)
                    VALUES ('ios.fix', 'Fix', 'Area', 'ios', '', 'ann', 2, 'testing', 0, 0)
                    """)
                // t_a twice on revision 1 and once on 2; t_b once; one record unlinked from a withdrawn tester.
                for (id, revision, tester, latest) in [("fb_1", 1, "t_a", 0), ("fb_2", 1, "t_a", 1), ("fb_3", 1, "t_b", 1), ("fb_4", 1, nil, 1),
                                                       ("fb_5", 2, "t_a", 1)] as [(String, Int, String?, Int)] {
                    try connection.query(
                        """
                        INSERT INTO feedback (id, fix_key, revision, tester_id, is_latest, platform, os_version, app_build, assistive_tech, verdict,
                            task_outcome, severity, regression, wcag, channel, recorded_by, recorded_at_ms)
                        VALUES (?, 'ios.fix', ?, ?, ?, 'ios', '18', '1', 'voiceover', 'passed', 'completed_independently', 'none', 0, '', 'http', 'ann', 0)
                        """, [.text(id), .int(revision), .optional(tester), .int(latest)])
                }
            }
        }, check: { database in
            let (first, second) = try database.read { connection in
                (try RelationalStore.latest(of: "ios.fix", revision: 1, on: connection).map(\.id),
                 try RelationalStore.latest(of: "ios.fix", revision: 2, on: connection).map(\.id))
            }
            #expect(first == ["fb_2", "fb_3", "fb_4"])
            #expect(second == ["fb_5"])
            #expect(throws: (any Error).self) { try database.read { try $0.query("SELECT is_latest FROM feedback") } }
        })
    }

    /// A write transaction reuses the fix it read for the next submission only with a check that the row did not
    /// change (PostgreSQL, where reads are round trips); SQLite reads it again. Either way no feedback is checked
    /// against a fix that changed under it (docs/storage.md, "Reads shared by a batch").
    @Test(arguments: StoreBackend.allCases)
    func aFixReadOnceInABatchIsReusedOnlyWhileItIsUnchanged(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            let titles = try store.database.write { connection in
                let first = try RelationalStore.feedbackFix(key, on: connection)
                let again = try RelationalStore.feedbackFix(key, on: connection)
                try connection.flush()
                return [first?.title, again?.title]
            }
            #expect(titles[0] != nil && titles[0] == titles[1])
            let changed: Result<String?, any Error> = Result {
                try store.database.write { connection in
                    _ = try RelationalStore.feedbackFix(key, on: connection)
                    try connection.query("UPDATE fixes SET title = 'Changed' WHERE key = ?", [.text(key)])
                    let stale = try RelationalStore.feedbackFix(key, on: connection)
                    try connection.flush()
                    return stale?.title
                }
            }
            switch backend {
            case .sqlite: #expect(try changed.get() == "Changed")
            case .postgres: #expect(throws: StoreConflict.self) { try changed.get() }
            }
        }
    }

    /// The table's rows as "tester record", a withdrawn tester's as "- record", in order.
    private func rows(of store: RelationalStore) throws -> [String] {
        try store.database.read { connection in
            try connection.query(
                "SELECT l.tester_id, f.id FROM latest_feedback l JOIN feedback f ON f.seq = l.seq WHERE l.fix_key = ?",
                [.text(key)]).map { "\($0.optionalString(0) ?? "-") \($0.string(1))" }
                .sorted()
        }
    }
}
