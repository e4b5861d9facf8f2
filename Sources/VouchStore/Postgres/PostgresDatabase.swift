import Dispatch
import Synchronization

/// A PostgreSQL database shared by several `vouchd`: one writer connection, a pool of readers.
///
/// Write transactions take the advisory write lock (`PostgresConnection.beginWrite`), so they run one at a time
/// across every node; reads run beside them, each in one snapshot. A connection found broken is dropped and a new
/// one opened at the next use; a write that failed is never retried here (its caller answers 503).
public final class PostgresDatabase: SQLDatabase {
    public var dialect: SQLDialect { .postgres }
    /// "PostgreSQL database vouch on db1:5432", from the first connection; never the password.
    public let location: String
    let url: String
    private let writeLockLimits: PostgresWriteLockLimits
    /// The session that listens for other nodes' announcements, opened at the first wait (`waitForAnnouncement`).
    let announcements = Mutex<PostgresNotificationListener?>(nil)
    /// The writer, nil once it was found broken until the next write opens another.
    private let writer: Mutex<PostgresConnection?>
    private let readers = Mutex<[PostgresConnection]>([])
    private let maxIdleReaders: Int
    /// Writes waiting for the next group commit (`groupWrite`).
    let groupCommit = GroupCommit()
    /// Reads at once: a connection is a server process, and several vouchd share the server's `max_connections`
    /// (100 by default), so a burst of reads waits for a reader rather than opening ever more sessions.
    private let readerSlots: DispatchSemaphore

    /// Connects once, so a wrong URL, a refused password or an unreachable server stops the start with libpq's reason.
    /// - Parameters:
    ///   - url: a libpq URL (`postgres://user@host/db`) or `key=value` string.
    ///   - writeLockLimits: how long a write waits for the write lock, and may hold it idle.
    ///   - maxReaders: reads that run at once; more wait for one to end. With the writer, the listener and the promotion
    ///     timer's session, a node holds at most `maxReaders + 3` sessions.
    public init(url: String, maxIdleReaders: Int = 8, maxReaders: Int = 16, writeLockLimits: PostgresWriteLockLimits = .init()) throws(PostgresError) {
        self.url = url
        self.maxIdleReaders = min(maxIdleReaders, maxReaders)
        readerSlots = DispatchSemaphore(value: max(1, maxReaders))
        self.writeLockLimits = writeLockLimits
        let connection = try PostgresConnection(url: url, writeLockLimits: writeLockLimits)
        location = connection.location
        writer = Mutex(connection)
    }

    /// The connection string without its password, for logs.
    public static func redacted(_ url: String) -> String {
        PostgresConnectionString.redacted(url)
    }

    private func connect() throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(url: url, writeLockLimits: writeLockLimits)
    }

    /// Runs `body` in one write transaction holding the write lock; commits before returning.
    public func write<T: Sendable>(_ body: (any SQLConnection) throws -> T, committed: (T) -> T) throws -> T {
        do {
            return try withWriterConnection { connection in committed(try connection.transaction(immediate: true, body)) }
        } catch let error as PostgresError where error.isConnectionFailure && error.sql?.hasPrefix("BEGIN") == true {
            // The session was lost before the transaction began (the server ended it while it sat idle, and the news
            // had not reached this side yet): nothing of `body` ran, so a new session may run it once.
            return try withWriterConnection { connection in committed(try connection.transaction(immediate: true, body)) }
        }
    }

    public func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T) throws -> T {
        try groupCommit.write(on: self, body, committed: committed)
    }

    public func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T,
                                        completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        groupCommit.submit(on: self, body, committed: committed, completion: completion)
    }

    /// Runs `body` on the writer connection without a transaction (schema work that manages its own).
    public func withWriter<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withWriterConnection(body)
    }

    private func withWriterConnection<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try writer.withLock { slot in
            let connection: PostgresConnection
            if let current = slot, current.isUsable {
                connection = current
            } else {
                slot = nil
                connection = try connect()
                slot = connection
            }
            // A session left broken, or inside a transaction nobody will end, must not serve the next write.
            defer { if !connection.isUsable || connection.isInTransaction { slot = nil } }
            let result = try body(connection)
            // Work outside a transaction may end on deferred statements, which must still run.
            try connection.flush()
            return result
        }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction on a pooled reader: one snapshot throughout.
    public func read<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        readerSlots.wait()
        defer { readerSlots.signal() }
        do {
            return try readOnce(body)
        } catch let error as PostgresError where error.isConnectionFailure {
            // A read changes nothing, so one lost with its session (a restart, a terminated backend) runs again on a
            // new one; a second failure means the server is away, and is the caller's.
            return try readOnce(body)
        }
    }

    private func readOnce<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let connection = try checkOutReader()
        defer { checkIn(connection) }
        return try connection.readTransaction(body)
    }

    /// Whether the server answers, for `/readyz`: a `SELECT 1` on a pooled reader.
    public func isReachable() -> Bool {
        readerSlots.wait()
        defer { readerSlots.signal() }
        guard let connection = try? checkOutReader() else { return false }
        defer { checkIn(connection) }
        return (try? connection.query("SELECT 1", [])) != nil
    }

    private func checkOutReader() throws(PostgresError) -> PostgresConnection {
        // Idle readers the server closed meanwhile (a restart, a terminated backend) are found out and dropped here,
        // before any statement is sent on them.
        while let idle = readers.withLock({ $0.popLast() }) {
            if idle.isUsable { return idle }
        }
        return try connect()
    }

    private func checkIn(_ connection: PostgresConnection) {
        guard connection.isUsable, !connection.isInTransaction else { return }
        readers.withLock { idle in
            if idle.count < maxIdleReaders { idle.append(connection) }
        }
    }

    /// Nothing to do: PostgreSQL leaves deleted rows as dead tuples until VACUUM (autovacuum) reclaims them, and
    /// no SQL statement can force that inside a transaction; SQLite's checkpoint has no equivalent here.
    public func purgeDeletedRows() throws {}
}
