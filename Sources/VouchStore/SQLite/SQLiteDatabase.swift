import Foundation
import CSQLite
import Synchronization

/// The SQLite database file: one serialized writer connection and a pool of readers.
///
/// WAL lets readers run beside the writer; `synchronous=FULL` makes every commit durable before
/// the caller answers 2xx.
public final class SQLiteDatabase: SQLDatabase {
    public var dialect: SQLDialect { .sqlite }
    public var location: String { path }
    public enum Synchronous: String, Sendable, CaseIterable {
        case full = "FULL"
        case normal = "NORMAL"
    }

    public let path: String
    private let writer: Mutex<SQLiteConnection>
    private let readers: Mutex<[SQLiteConnection]>
    private let maxIdleReaders: Int
    /// How long a connection waits for another connection's lock before failing with SQLITE_BUSY.
    public let busyTimeoutMilliseconds: Int
    /// Writes waiting for the next group commit (`groupWrite`).
    let groupCommit = GroupCommit()

    /// - Parameter busyTimeoutMilliseconds: how long a write waits for a lock held elsewhere (another process, a backup)
    ///   before it fails with SQLITE_BUSY, which the API answers with 503 and `Retry-After`.
    public init(path: String, synchronous: Synchronous = .full, maxIdleReaders: Int = 8, busyTimeoutMilliseconds: Int = 5_000) throws(SQLiteError) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let connection = try SQLiteConnection(path: path)
        try SQLiteDatabase.configure(connection, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        // WAL is a property of the file, so setting it once on the writer covers the readers.
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = \(synchronous.rawValue)")
        // Deleted content is overwritten with zeros, so an erased tester's name does not linger in free pages.
        try connection.execute("PRAGMA secure_delete = ON")
        // The writer's statement journal (what undoes a group commit member's savepoint) stays in memory. By default
        // it spills past 64 KiB into a temporary file under /var/tmp, which a batch of a few feedback submissions
        // passes: then every page a member changed was written there too, twice the writes of the WAL itself, and
        // testers' data went through files outside the state directory (docs/storage.md, "The writer's journal").
        // Readers keep the default, so a report's large sort may still use a temporary file.
        try connection.execute("PRAGMA temp_store = MEMORY")
        writer = Mutex(connection)
        readers = Mutex([])
        self.maxIdleReaders = maxIdleReaders
    }

    private static func configure(_ connection: SQLiteConnection, busyTimeoutMilliseconds: Int) throws(SQLiteError) {
        // "sets a busy handler that sleeps for a specified amount of time when a table is locked".
        sqlite3_busy_timeout(connection.handle, Int32(clamping: max(0, busyTimeoutMilliseconds)))
        try connection.execute("PRAGMA foreign_keys = ON")
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on the single writer; commits before returning.
    /// - Parameter committed: runs only once COMMIT succeeded, still under the writer lock, so the next transaction
    ///   sees what it records; it may complete the body's result.
    public func write<T: Sendable>(_ body: (any SQLConnection) throws -> T, committed: (T) -> T) throws -> T {
        try writer.withLock { connection in
            committed(try connection.transaction(immediate: true, body))
        }
    }

    /// Runs `body` without an explicit transaction on the writer (schema work that manages its own transactions).
    public func withWriter<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.withLock { connection in try body(connection) }
    }

    /// Runs `body` in a read transaction on a pooled reader, so it sees one consistent state.
    public func read<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let connection = try checkOutReader()
        defer { checkIn(connection) }
        return try connection.transaction(immediate: false, body)
    }

    public func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T) throws -> T {
        try groupCommit.write(on: self, body, committed: committed)
    }

    public func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T,
                                        completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        groupCommit.submit(on: self, body, committed: committed, completion: completion)
    }

    private func checkOutReader() throws(SQLiteError) -> SQLiteConnection {
        if let idle = readers.withLock({ $0.popLast() }) { return idle }
        let connection = try SQLiteConnection(path: path)
        try SQLiteDatabase.configure(connection, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try connection.execute("PRAGMA query_only = ON")
        return connection
    }

    private func checkIn(_ connection: SQLiteConnection) {
        readers.withLock { idle in
            if idle.count < maxIdleReaders { idle.append(connection) }
        }
    }

    /// Moves every committed page from the WAL into the database file and empties the WAL, so deleted data
    /// does not survive in old WAL frames. Readers that are mid-transaction can make this partial; it is retried.
    public func checkpointAndTruncate() throws {
        try writer.withLock { connection in
            for _ in 0..<50 {
                let row = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)").first
                if row?.int(0) == 0 { return }
                usleep(10_000)
            }
        }
    }

    /// Old WAL frames still hold erased rows until a checkpoint moves them into the file (with `secure_delete`).
    public func purgeDeletedRows() throws {
        try checkpointAndTruncate()
    }

    /// One process owns the file (the state directory's lock), so there is nobody to share with.
    public var isShared: Bool { false }

    /// SQLite locks the whole file for a write: an ordinary write.
    public func writeLockingRows<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write(body, committed: { $0 })
    }

    /// The only process on the file always holds every lock.
    public func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (_ stillHeld: () -> Bool) throws -> T) throws -> T? {
        try body { true }
    }

    /// Nobody else writes the file: nothing is ever announced.
    public func waitForAnnouncement(timeout: Duration) throws {
        Thread.sleep(forTimeInterval: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    }

    /// Copies the live database to `destination` with SQLite's online backup API.
    public func backup(to destination: String) throws(SQLiteError) {
        let target = try SQLiteConnection(path: destination)
        try writer.withLock { (source: inout SQLiteConnection) throws(SQLiteError) in
            guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
                throw target.error(sqlite3_errcode(target.handle), sql: nil)
            }
            let stepStatus = sqlite3_backup_step(backup, -1)
            let finishStatus = sqlite3_backup_finish(backup)
            guard stepStatus == SQLITE_DONE, finishStatus == SQLITE_OK else {
                throw target.error(finishStatus == SQLITE_OK ? stepStatus : finishStatus, sql: nil)
            }
        }
    }
}
