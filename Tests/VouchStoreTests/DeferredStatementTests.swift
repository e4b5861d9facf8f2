import Foundation
import Testing
import VouchTestSupport
@testable import VouchStore

/// Statements whose answer nobody waits for run later, with the next one whose answer is needed (PostgreSQL: one
/// pipeline, one round trip), in order, and their errors reach the caller that deferred them (docs/storage.md,
/// "Deferred statements").
struct DeferredStatementTests {
    typealias Backend = GroupCommitFailureTests.Backend

    @Test(arguments: Backend.allCases)
    func deferredStatementsRunInOrderBeforeTheNextReadWhichGetsItsOwnRows(_ backend: Backend) throws {
        try GroupCommitFailureTests.withDatabase(backend) { database, _, _ throws in
            let seen = try database.write { connection in
                try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(1)])
                try connection.executeDeferred("UPDATE items SET n = n + 10 WHERE n = ?", [.int(1)])
                try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(2)])
                return try connection.query("SELECT n FROM items WHERE n > ? ORDER BY n", [.int(0)]).map { $0.int(0) }
            }
            #expect(seen == [2, 11])
            #expect(try GroupCommitFailureTests.rows(database) == [2, 11])
        }
    }

    /// A failed deferred statement is reported with its own SQL, by `flush` or the statement that sent it; the
    /// statements deferred after it do not run, and the transaction is rolled back as with any failed statement.
    @Test(arguments: Backend.allCases)
    func aFailingDeferredStatementIsReportedWithItsOwnSQLAndNothingAfterItRuns(_ backend: Backend) throws {
        try GroupCommitFailureTests.withDatabase(backend) { database, _, _ throws in
            try database.write { try $0.query("INSERT INTO items (n) VALUES (1)") }
            let duplicate = "INSERT INTO items (n) VALUES (?)"
            let error = #expect(throws: (any Error).self) {
                try database.write { connection in
                    try connection.executeDeferred(duplicate, [.int(1)])
                    try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(2)])
                    try connection.flush()
                }
            }
            #expect(error.map { "\($0)" }?.contains(duplicate) == true, "\(String(describing: error))")
            #expect(try GroupCommitFailureTests.rows(database) == [1])
            // The writer is fit for the next transaction.
            try database.write { connection in
                try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(3)])
            }
            #expect(try GroupCommitFailureTests.rows(database) == [1, 3])
        }
    }

    /// A body that defers statements and then throws stores none of them; a deferred CREATE TABLE is there for the
    /// statement after it, which is prepared against it.
    @Test(arguments: Backend.allCases)
    func aThrowingBodyStoresNothingItDeferredAndDeferredSchemaIsSeenByTheNextStatement(_ backend: Backend) throws {
        try GroupCommitFailureTests.withDatabase(backend) { database, _, _ throws in
            #expect(throws: RefusedOnPurpose.self) {
                try database.write { connection in
                    try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(5)])
                    throw RefusedOnPurpose()
                }
            }
            #expect(try GroupCommitFailureTests.rows(database) == [])
            let count = try database.write { connection in
                try connection.executeDeferred("CREATE TABLE later (n INTEGER)", [])
                try connection.executeDeferred("INSERT INTO later (n) VALUES (?)", [.int(7)])
                return try connection.scalar("SELECT COUNT(*) FROM later")
            }
            #expect(count == 1)
        }
    }

    /// In a group commit, a member whose deferred statement fails, found at its next read or at its end, or that
    /// throws with statements still deferred, is rolled back alone; the members around it commit everything they
    /// deferred.
    @Test(arguments: Backend.allCases)
    func aGroupMemberWhoseDeferredStatementFailsIsRolledBackAlone(_ backend: Backend) throws {
        try GroupCommitFailureTests.withDatabase(backend) { database, _, _ throws in
            let results = GroupCommitFailureTests.oneBatch(of: 7, on: database) { index, connection in
                let insert = "INSERT INTO items (n) VALUES (?)"
                switch index {
                case 2:
                    // A duplicate of member 0's row, found when the member ends.
                    try connection.executeDeferred(insert, [.int(102)])
                    try connection.executeDeferred(insert, [.int(0)])
                case 3:
                    // Found by the member's next read, which throws it.
                    try connection.executeDeferred(insert, [.int(1)])
                    _ = try connection.query("SELECT COUNT(*) FROM items")
                case 4:
                    try connection.executeDeferred(insert, [.int(104)])
                    throw RefusedOnPurpose()
                default:
                    try connection.executeDeferred(insert, [.int(100 + index)])
                }
            }
            #expect(results == [.committed, .committed, .failed, .failed, .failed, .committed, .committed])
            #expect(try GroupCommitFailureTests.rows(database) == [0, 1, 5, 6, 100, 101, 105, 106])
        }
    }
}
