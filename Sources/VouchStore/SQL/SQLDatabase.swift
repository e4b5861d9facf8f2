/// A database the store keeps everything in: one SQLite file, or a PostgreSQL server shared by several `vouchd`.
///
/// Both serialise write transactions (one writer at a time across every process), run reads beside them on
/// connections of their own, and commit each write durably before it returns.
public protocol SQLDatabase: AnyObject, Sendable {
    var dialect: SQLDialect { get }
    /// Where the data is, for messages: the file's path, or the server and database name (never a password).
    var location: String { get }
    /// Runs `body` in one write transaction and commits before returning.
    /// - Parameter committed: runs only once COMMIT succeeded, still holding the writer, so the next transaction
    ///   sees what it records; it may complete the body's result.
    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T, committed: (T) -> T) throws -> T
    /// `write` for callers that arrive together: one COMMIT carries several callers' transactions (`GroupCommit`).
    func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T) throws -> T
    /// `groupWrite` for a caller that does not wait: `completion` gets the outcome on the thread that led the commit,
    /// perhaps this one before the call returns (`GroupCommit.submit`).
    func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T,
                                 completion: @escaping @Sendable (Result<T, any Error>) -> Void)
    /// Runs `body` in a read transaction, so it sees one consistent state.
    func read<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` on the writer connection without a transaction (schema work that manages its own).
    func withWriter<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// After an erasure (a tester's withdrawal): makes the deleted rows leave the files where the database can.
    func purgeDeletedRows() throws

    // MARK: Several processes on one database (docs/storage.md, "Several vouchd")

    /// Whether other processes may share this database (PostgreSQL): each must then follow the others' changes.
    var isShared: Bool { get }
    /// Runs `body` in a write transaction that does not take the one write lock: only for statements that lock the
    /// rows they change themselves (claiming deliveries with `FOR UPDATE SKIP LOCKED`).
    func writeLockingRows<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` while this process holds `lock`, which at most one process sharing the database holds at a time;
    /// returns nil without running it when another holds it. A process that is not heard from for `lease` (frozen,
    /// cut off) loses the lock to the others; `stillHeld` tells the body whether it still has it.
    func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (_ stillHeld: () -> Bool) throws -> T) throws -> T?
    /// Returns when another process announces a configuration change, or once `timeout` has passed.
    func waitForAnnouncement(timeout: Duration) throws
}

/// Work that one process at a time does for all that share a database, each with its advisory lock key.
public enum SharedLock: Int64, Sendable {
    /// The promotion timer's tick ("vouch-pt" in ASCII).
    case promotionTimer = 0x766F_7563_682D_7074
}

extension SQLDatabase {
    @discardableResult
    public func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write(body, committed: { $0 })
    }

    public func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T) throws -> T {
        try groupWrite(body, committed: { $0 })
    }
}
