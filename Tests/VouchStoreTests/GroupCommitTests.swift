import Foundation
import Synchronization
import Testing
@testable import VouchStore
import VouchTestSupport

struct GroupCommitTests {
    @Test func concurrentWritersAllCommitAndAFailingOneRollsBackAlone() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("db.sqlite3"))
        try database.write { try $0.execute("CREATE TABLE items (n INTEGER PRIMARY KEY)") }
        let failures = StoreFixtures.concurrentGroupWrites(on: database, writers: 64) { index, _ in
            // Every tenth writer fails after its insert; only its own row may disappear.
            if index % 10 == 0 { throw SQLiteError(code: 1, message: "refused on purpose", sql: nil) }
        }
        #expect(failures == 7)
        let rows = try database.read { try $0.query("SELECT n FROM items ORDER BY n").map { $0.int(0) } }
        #expect(rows == (0..<64).filter { $0 % 10 != 0 })
    }
}
