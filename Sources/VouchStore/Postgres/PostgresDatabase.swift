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
    private let writeLockTimeoutMilliseconds: Int
    /// The session that listens for other nodes' announcements, opened at the first wait (`waitForAnnouncement`).
    let announcements = Mutex<PostgresNotificationListener?>(nil)
    /// The writer, nil once it was found broken until the next write opens another.
    private let writer: Mutex<PostgresConnection?>
    private let readers = Mutex<[PostgresConnection]>([])
    private let maxIdleReaders: Int
    /// Writes waiting for the next group commit (`groupWrite`).
    let groupCommit = GroupCommit()

    /// Connects once, so a wrong URL, a refused password or an unreachable server stops the start with libpq's reason.
    /// - Parameters:
    ///   - url: a libpq URL (`postgres://user@host/db`) or `key=value` string.
    ///   - writeLockTimeoutMilliseconds: how long a write waits for another node's write transaction before failing
    ///     with `isLockTimeout`, which the API answers with 503 and `Retry-After`, as SQLite's busy timeout.
    public init(url: String, maxIdleReaders: Int = 8, writeLockTimeoutMilliseconds: Int = 5_000) throws(PostgresError) {
        self.url = url
        self.maxIdleReaders = maxIdleReaders
        self.writeLockTimeoutMilliseconds = writeLockTimeoutMilliseconds
        let connection = try PostgresConnection(url: url, writeLockTimeoutMilliseconds: writeLockTimeoutMilliseconds)
        location = connection.location
        writer = Mutex(connection)
    }

    /// The connection string without its password, for logs.
    public static func redacted(_ url: String) -> String {
        PostgresConnectionString.redacted(url)
    }

    private func connect() throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(url: url, writeLockTimeoutMilliseconds: writeLockTimeoutMilliseconds)
    }

    /// Runs `body` in one write transaction holding the write lock; commits before returning.
    public func write<T: Sendable>(_ body: (any SQLConnection) throws -> T, committed: (T) -> T) throws -> T {
        try withWriterConnection { connection in
            committed(try connection.transaction(immediate: true, body))
        }
    }

    public func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T) throws -> T {
        try groupCommit.write(on: self, body, committed: committed)
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
            return try body(connection)
        }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction on a pooled reader: one snapshot throughout.
    public func read<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let connection = try checkOutReader()
        defer { checkIn(connection) }
        return try connection.readTransaction(body)
    }

    /// Whether the server answers, for `/readyz`: a `SELECT 1` on a pooled reader.
    public func isReachable() -> Bool {
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
