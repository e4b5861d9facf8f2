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

    /// A group commit member's savepoint is undone from the statement journal; the writer keeps it in memory rather
    /// than spilling it past 64 KiB into a temporary file outside the state directory (docs/storage.md, "The writer's
    /// journal"). Readers keep the default, so a large sort may still use a file.
    @Test func theWritersJournalStaysInMemory() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("vouch.sqlite3"))
        let memory = 2
        #expect(try database.withWriter { try $0.query("PRAGMA temp_store").first?.int(0) } == memory)
        #expect(try database.read { try $0.query("PRAGMA temp_store").first?.int(0) } == 0)
    }
}
