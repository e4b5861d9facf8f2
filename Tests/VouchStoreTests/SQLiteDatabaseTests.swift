import Foundation
import Testing
@testable import VouchStore
import VouchTestSupport

/// What only the SQLite database does: PostgreSQL is backed up with pg_dump, outside the store (docs/storage.md).
struct SQLiteDatabaseTests {
    @Test func backupCopiesTheLiveDatabase() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
        try #require(store.database as? SQLiteDatabase).backup(to: directory.file("copy.sqlite3"))
        let copy = try RelationalStore(path: directory.file("copy.sqlite3"))
        #expect(try copy.fix("tv-channel-selector-labels")?.uiArea == "TV channel selector")
    }
}
