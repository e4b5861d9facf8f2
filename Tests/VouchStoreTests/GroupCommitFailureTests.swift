import Dispatch
import Foundation
import Synchronization
import Testing
import VouchTestSupport
@testable import VouchStore

/// Every queued job of a group commit ends exactly once, with its result or an error, and never commits after its
/// caller was told it failed; callers behind a leader that failed are woken at once (docs/storage.md, "Group commit").
struct GroupCommitFailureTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// The leader holds the writer's place and its callers line up behind it; then the writer cannot be had. On
    /// PostgreSQL that is real: the database refuses new sessions and the writer's session is ended, so reconnecting
    /// fails. SQLite's writer is a connection opened at start, so there the gate throws in its place.
    @Test(arguments: Backend.allCases)
    func aWriterThatCannotBeHadFailsEveryQueuedCallerAndCommitsNoneOfThemLater(_ backend: Backend) throws {
        try Self.withDatabase(backend) { database, refuseWriter, allowWriter throws in
            let gated = GatedWriterDatabase(database)
            let commit = GroupCommit()
            let outcomes = Self.startWriters(0..<4, through: commit, on: gated, first: { gated.waitUntilHeld() })
            Self.waitUntil { commit.queuedJobs == 4 }
            let refusal = try refuseWriter()
            gated.open(failingWith: refusal)
            #expect(outcomes.group.wait(timeout: .now() + 10) == .success, "callers queued behind the failed leader were left waiting")
            #expect(outcomes.results.allSatisfy { $0 == .failed }, "\(outcomes.results)")

            try allowWriter()
            let later = Self.startWriters(10..<11, through: commit, on: gated)
            #expect(later.group.wait(timeout: .now() + 10) == .success)
            #expect(later.results == [.committed])
            #expect(try Self.rows(database) == [10], "a job whose caller was told it failed was committed by a later leader")
        }
    }

    /// A COMMIT that fails fails every member of the batch, and the callers behind it commit in the next one.
    @Test(arguments: Backend.allCases)
    func aFailedCommitFailsItsWholeBatchAndTheNextBatchCommits(_ backend: Backend) throws {
        try Self.withDatabase(backend) { database, _, _ throws in
            // A row 99 makes the COMMIT fail: a deferred foreign key without its parent, checked at COMMIT by both.
            try database.write { connection in
                try connection.execute("""
                    CREATE TABLE commit_gate_parent (id INTEGER PRIMARY KEY);
                    CREATE TABLE commit_gate (parent INTEGER REFERENCES commit_gate_parent (id) DEFERRABLE INITIALLY DEFERRED)
                    """)
            }
            let gated = GatedWriterDatabase(database)
            let commit = GroupCommit()
            let first = Self.startWriters(0..<4, through: commit, on: gated, first: { gated.waitUntilHeld() }) { index, connection in
                if index == 2 { try connection.query("INSERT INTO commit_gate (parent) VALUES (99)") }
            }
            Self.waitUntil { commit.queuedJobs == 4 }
            gated.open()
            #expect(first.group.wait(timeout: .now() + 10) == .success)
            #expect(first.results.allSatisfy { $0 == .failed }, "\(first.results)")
            let second = Self.startWriters(4..<8, through: commit, on: gated)
            #expect(second.group.wait(timeout: .now() + 10) == .success)
            #expect(second.results.allSatisfy { $0 == .committed })
            #expect(try Self.rows(database) == [4, 5, 6, 7])
        }
    }

    /// A body that throws undoes only its own savepoint; a slow body makes the others wait, not fail.
    @Test(arguments: Backend.allCases)
    func aThrowingBodyAndASlowLeaderLeaveTheOthersCommitted(_ backend: Backend) throws {
        try Self.withDatabase(backend) { database, _, _ throws in
            let results = Self.oneBatch(of: 6, on: database) { index, _ in
                if index == 0 { Thread.sleep(forTimeInterval: 0.2) }
                if index == 3 { throw RefusedOnPurpose() }
            }
            #expect(results == [.committed, .committed, .committed, .failed, .committed, .committed])
            #expect(try Self.rows(database) == [0, 1, 2, 4, 5])
        }
    }

    // MARK: Helpers

    enum Outcome: Equatable { case pending, committed, failed }

    final class Outcomes: Sendable {
        let group = DispatchGroup()
        private let list: Mutex<[Outcome]>
        init(count: Int) { list = Mutex(Array(repeating: .pending, count: count)) }
        var results: [Outcome] { list.withLock { $0 } }
        func set(_ index: Int, _ outcome: Outcome) { list.withLock { $0[index] = outcome } }
    }

    /// Starts one thread per index, in order (each queued before the next starts); each inserts its index into `items`.
    /// The first runs `first` inside its writer before anything else, to hold the lead while the others queue.
    static func startWriters(_ indices: Range<Int>, through commit: GroupCommit, on database: any SQLDatabase,
                             first: @escaping @Sendable () -> Void = {},
                             then: @escaping @Sendable (Int, any SQLConnection) throws -> Void = { _, _ in }) -> Outcomes {
        let outcomes = Outcomes(count: indices.count)
        for (position, index) in indices.enumerated() {
            outcomes.group.enter()
            let queuedBefore = commit.queuedJobs
            Thread {
                defer { outcomes.group.leave() }
                do {
                    let stored: Int = try commit.write(on: database, { connection in
                        try connection.query("INSERT INTO items (n) VALUES (?)", [.int(index)])
                        try then(index, connection)
                        return index
                    }, committed: { $0 })
                    outcomes.set(position, stored == index ? .committed : .failed)
                } catch {
                    outcomes.set(position, .failed)
                }
            }.start()
            // Queued behind the others, or already done when nobody held the writer.
            if position == 0 { first() } else { waitUntil { commit.queuedJobs > queuedBefore || outcomes.results[position] != .pending } }
        }
        return outcomes
    }

    /// Lines `count` writers up behind a leader held at the writer, then lets them through as one batch.
    static func oneBatch(of count: Int, on database: any SQLDatabase,
                         then: @escaping @Sendable (Int, any SQLConnection) throws -> Void) -> [Outcome] {
        let gated = GatedWriterDatabase(database)
        let commit = GroupCommit()
        let outcomes = startWriters(0..<count, through: commit, on: gated, first: { gated.waitUntilHeld() }, then: then)
        waitUntil { commit.queuedJobs == count }
        gated.open()
        #expect(outcomes.group.wait(timeout: .now() + 10) == .success)
        return outcomes.results
    }

    static func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !condition(), Date() < deadline { usleep(1_000) }
    }

    static func rows(_ database: any SQLDatabase) throws -> [Int] {
        try database.read { try $0.query("SELECT n FROM items ORDER BY n").map { $0.int(0) } }
    }

    /// Runs `body` on a fresh database with a table `items (n)`, giving it a way to make the writer unavailable
    /// (returning the error a write then meets) and to make it available again.
    static func withDatabase(_ backend: Backend,
                             _ body: (any SQLDatabase, _ refuseWriter: () throws -> any Error, _ allowWriter: () throws -> Void) throws -> Void) throws {
        switch backend {
        case .sqlite:
            let directory = try TemporaryDirectory()
            let database = try SQLiteDatabase(path: directory.file("db.sqlite3"))
            try database.write { try $0.execute("CREATE TABLE items (n INTEGER PRIMARY KEY)") }
            try body(database, { SQLiteError(code: 14, message: "unable to open database file", sql: nil) }, {})
        case .postgres:
            try PostgresTestDatabase.run { server in
                let database = try server.makeDatabase()
                try database.write { try $0.execute("CREATE TABLE items (n INTEGER PRIMARY KEY)") }
                let side = try PostgresConnection(url: try PostgresTestDatabase.serverURL())
                let refuse = { () throws -> any Error in
                    try side.execute("ALTER DATABASE \(server.name) ALLOW_CONNECTIONS false")
                    try side.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(server.name)'")
                    // pg_terminate_backend only signals: wait until the sessions are really gone.
                    waitUntil { (try? side.query("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = '\(server.name)'").first?.int(0)) == 0 }
                    Thread.sleep(forTimeInterval: 0.05)
                    // What reconnecting now meets, as the writer will meet it.
                    do { _ = try PostgresConnection(url: server.url) } catch { return error }
                    Issue.record("the database still took a new session")
                    return GroupCommitFailure("no refusal")
                }
                try body(database, refuse, { try side.execute("ALTER DATABASE \(server.name) ALLOW_CONNECTIONS true") })
                try side.execute("ALTER DATABASE \(server.name) ALLOW_CONNECTIONS true")
            }
        }
    }
}

/// A database whose writer is held at the first `withWriter` until the test opens it; opened with an error, that
/// first call fails as a writer that could not be reached does, else every call goes to the real database.
final class GatedWriterDatabase: SQLDatabase {
    let inner: any SQLDatabase
    private let held = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let gating = Atomic<Bool>(true)
    /// Written before `gate` is signalled and read after the wait returns.
    private let failure = Mutex<(any Error)?>(nil)

    init(_ inner: any SQLDatabase) { self.inner = inner }

    func waitUntilHeld() { held.wait() }

    /// Lets the held writer go on: into the real database, or, with an error, to fail before the batch is taken
    /// (after trying the real writer, which on PostgreSQL then fails to reconnect by itself).
    func open(failingWith error: (any Error)? = nil) {
        failure.withLock { $0 = error }
        gate.signal()
    }

    var dialect: SQLDialect { inner.dialect }
    var location: String { inner.location }
    var isShared: Bool { inner.isShared }

    func withWriter<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        if gating.exchange(false, ordering: .acquiringAndReleasing) {
            held.signal()
            gate.wait()
            if let error = failure.withLock({ $0 }) {
                // PostgreSQL's writer really is gone now: its own attempt fails; SQLite's never would, so the error stands in.
                if inner.dialect == .postgres { return try inner.withWriter(body) }
                throw error
            }
        }
        return try inner.withWriter(body)
    }

    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T, committed: (T) -> T) throws -> T { try inner.write(body, committed: committed) }
    func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T) throws -> T {
        try inner.groupWrite(body, committed: committed)
    }
    func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T,
                                 completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        inner.groupWrite(body, committed: committed, completion: completion)
    }
    func read<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T { try inner.read(body) }
    func purgeDeletedRows() throws { try inner.purgeDeletedRows() }
    func writeLockingRows<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T { try inner.writeLockingRows(body) }
    func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (() -> Bool) throws -> T) throws -> T? {
        try inner.whileHolding(lock, lease: lease, body)
    }
    func waitForAnnouncement(timeout: Duration) throws { try inner.waitForAnnouncement(timeout: timeout) }
}
