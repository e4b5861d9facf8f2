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

    /// A deferred check (a read whose rows only a closure looks at) throws its error at the next read, before any
    /// later statement's error, and the writes sent after it are undone with the transaction; a check that passes
    /// changes nothing.
    @Test(arguments: Backend.allCases)
    func aDeferredCheckThrowsAtTheNextReadAndWhatWasSentAfterItIsRolledBack(_ backend: Backend) throws {
        try GroupCommitFailureTests.withDatabase(backend) { database, _, _ throws in
            try database.write { try $0.query("INSERT INTO items (n) VALUES (1)") }
            let refuseWhenOne: ([SQLRow]) throws -> Void = { rows in if rows.first?.int(0) == 1 { throw RefusedOnPurpose() } }
            #expect(throws: RefusedOnPurpose.self) {
                try database.write { connection in
                    try connection.executeDeferred("SELECT COUNT(*) FROM items", [], checking: refuseWhenOne)
                    try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(2)])
                    // A duplicate after the refusal: the check's error is the one heard, as if it had run alone first.
                    try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(1)])
                    _ = try connection.query("SELECT n FROM items", [])
                }
            }
            #expect(try GroupCommitFailureTests.rows(database) == [1])
            let seen = try database.write { connection in
                try connection.executeDeferred("SELECT COUNT(*) FROM items WHERE n > ?", [.int(1)], checking: refuseWhenOne)
                try connection.executeDeferred("INSERT INTO items (n) VALUES (?)", [.int(3)])
                return try connection.query("SELECT n FROM items ORDER BY n", []).map { $0.int(0) }
            }
            #expect(seen == [1, 3])
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
                case 5:
                    // A deferred check that refuses, found when the member ends; what it sent after the check goes too.
                    try connection.executeDeferred("SELECT COUNT(*) FROM items", [], checking: { _ in throw RefusedOnPurpose() })
                    try connection.executeDeferred(insert, [.int(105)])
                default:
                    try connection.executeDeferred(insert, [.int(100 + index)])
                }
            }
            #expect(results == [.committed, .committed, .failed, .failed, .failed, .failed, .committed])
            #expect(try GroupCommitFailureTests.rows(database) == [0, 1, 6, 100, 101, 106])
        }
    }
}
