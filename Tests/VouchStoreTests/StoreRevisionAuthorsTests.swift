import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Who shaped a fix's revision, read from its authoring audit events after every submission of feedback: found on
/// each database among many feedback events, and on SQLite through the partial index made for them.
struct StoreRevisionAuthorsTests {
    let time = StoreFixtures.time

    @Test(arguments: StoreBackend.allCases)
    func authorsAreFoundAmongTheFeedbackEvents(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 2)
            _ = try store.updateFix("tv-channel-selector-labels", action: .fixUpdate, by: "eve", note: nil) { fix in
                var changed = fix
                changed.title = "Label every channel logo"
                return changed
            }
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1", by: "t_0"), StoreFixtures.passing("fb_2", by: "t_1")], by: "maria",
                                         idempotency: nil)
            let fix = try #require(try store.fix("tv-channel-selector-labels"))
            let authors = try store.revisionAuthors(of: fix)
            #expect(authors.map(\.principal) == ["maria", "eve"])
            #expect(authors.last?.reasons == ["changed the fix's content"])
        }
    }

    /// The query's list of actions is the index's (migration 0021): SQLite uses a partial index only when the query's
    /// condition is the index's, term for term; otherwise the read walks every audit event of the fix again.
    @Test func sqliteReadsTheAuthoringIndex() throws {
        try StoreBackend.sqlite.withStore { store in
            let plan = try store.storage.read { connection in
                try connection.query("EXPLAIN QUERY PLAN " + RelationalStore.revisionAuthorsSQL, [.text("tv-channel-selector-labels")]).map { $0.string(3) }
            }
            #expect(plan.contains { $0.contains("USING INDEX audit_events_authoring") }, "plan: \(plan)")
        }
    }
}
