import Dispatch
import Foundation
import Synchronization
import Testing
@testable import VouchStore
import VouchTestSupport

/// Callers that hand the group commit a completion and go on (`GroupCommit.submit`, the API's feedback): each hears
/// its own outcome exactly once, after the COMMIT and outside the writer, and nobody is kept leading for others
/// (docs/architecture.md, "Writes and group commit").
struct GroupCommitCompletionTests {
    /// What the completions heard, by caller.
    final class Heard: Sendable {
        let group = DispatchGroup()
        private let outcomes: Mutex<[Int: [Bool]]> = Mutex([:])

        func record(_ index: Int, committed: Bool) {
            outcomes.withLock { $0[index, default: []].append(committed) }
        }

        var byCaller: [Int: [Bool]] { outcomes.withLock { $0 } }
    }

    static func database(in directory: TemporaryDirectory) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: directory.file("db.sqlite3"))
        try database.write { try $0.execute("CREATE TABLE items (n INTEGER PRIMARY KEY)") }
        return database
    }

    static func rows(_ database: any SQLDatabase) throws -> [Int] {
        try database.read { try $0.query("SELECT n FROM items ORDER BY n").map { $0.int(0) } }
    }

    @Test func everyCallerHearsItsOwnOutcomeOnceAndAFailingOneRollsBackAlone() throws {
        let directory = try TemporaryDirectory()
        let database = try Self.database(in: directory)
        let heard = Heard()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            heard.group.enter()
            database.groupWrite({ connection in
                try connection.query("INSERT INTO items (n) VALUES (?)", [.int(index)])
                if index % 7 == 0 { throw SQLiteError(code: 1, message: "refused on purpose", sql: nil) }
                return index
            }, committed: { $0 }) { outcome in
                heard.record(index, committed: (try? outcome.get()) == index)
                heard.group.leave()
            }
        }
        #expect(heard.group.wait(timeout: .now() + 20) == .success, "a completion was never called")
        let outcomes = heard.byCaller
        #expect(outcomes.count == 200)
        #expect(outcomes.values.allSatisfy { $0.count == 1 }, "a completion was called more than once")
        #expect(outcomes.filter { $0.value == [true] }.keys.sorted() == (0..<200).filter { $0 % 7 != 0 })
        #expect(try Self.rows(database) == (0..<200).filter { $0 % 7 != 0 })
    }

    /// The COMMIT is done and the writer let go when a completion runs: it may read what it wrote, and write again
    /// (an ordinary write takes the writer itself).
    @Test func aCompletionRunsAfterTheCommitAndOutsideTheWriter() throws {
        let directory = try TemporaryDirectory()
        let database = try Self.database(in: directory)
        let seen = Mutex<[Int]?>(nil)
        let done = DispatchSemaphore(value: 0)
        database.groupWrite({ connection in
            try connection.query("INSERT INTO items (n) VALUES (1)")
            return 1
        }, committed: { $0 }) { _ in
            // Another connection sees the row only once it is committed.
            seen.withLock { $0 = try? Self.rows(database) }
            try? database.write { try $0.execute("INSERT INTO items (n) VALUES (2)") }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the completion did not run, or deadlocked on the writer")
        #expect(seen.withLock { $0 } == [1])
        #expect(try Self.rows(database) == [1, 2])
    }

    /// A caller that waits (`groupWrite` without a completion) and leads returns once its own batch is committed, even
    /// while callers that do not wait keep the queue full: it leads one batch and hands the rest to another thread.
    @Test func aWaitingLeaderIsNotKeptLeadingForOthers() throws {
        let directory = try TemporaryDirectory()
        let database = try Self.database(in: directory)
        let inBody = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let waited = DispatchSemaphore(value: 0)
        let stored = Mutex<Int?>(nil)
        // The waiting caller leads: nobody else is queued when it starts, and it holds the writer until the gate opens.
        Thread {
            let value = try? database.groupWrite { connection in
                inBody.signal()
                gate.wait()
                try connection.query("INSERT INTO items (n) VALUES (7)")
                return 7
            }
            stored.withLock { $0 = value }
            waited.signal()
        }.start()
        #expect(inBody.wait(timeout: .now() + 10) == .success)
        // Submissions that do not wait arrive about as fast as they are committed, from now until the test ends
        // (at most 8 s): the queue is never empty when a batch ends.
        let stop = Atomic<Bool>(false)
        let heard = Heard()
        Thread {
            let end = Date().addingTimeInterval(8)
            var index = 1_000
            while !stop.load(ordering: .relaxed), Date() < end {
                let number = index
                index += 1
                heard.group.enter()
                database.groupWrite({ connection in
                    try connection.query("INSERT INTO items (n) VALUES (?)", [.int(number)])
                    usleep(200)
                    return number
                }, committed: { $0 }) { outcome in
                    heard.record(number, committed: (try? outcome.get()) == number)
                    heard.group.leave()
                }
                usleep(150)
            }
        }.start()
        let deadline = Date().addingTimeInterval(10)
        while database.groupCommit.queuedJobs < 8, Date() < deadline { usleep(1_000) }
        gate.signal()
        let returned = waited.wait(timeout: .now() + 4)
        stop.store(true, ordering: .relaxed)
        #expect(returned == .success, "the waiting leader was kept leading while the others kept the queue full")
        #expect(stored.withLock { $0 } == 7)
        #expect(heard.group.wait(timeout: .now() + 30) == .success, "a submission that did not wait was never answered")
        #expect(heard.byCaller.values.allSatisfy { $0 == [true] })
        #expect(try Self.rows(database).count == heard.byCaller.count + 1)
    }
}
