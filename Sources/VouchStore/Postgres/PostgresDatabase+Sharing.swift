import Foundation

/// What several vouchd on one PostgreSQL database share (docs/storage.md, "Several vouchd").
extension PostgresDatabase {
    public var isShared: Bool { true }

    /// A plain READ COMMITTED transaction on the writer, without the advisory write lock: its statements lock the
    /// rows they change (`FOR UPDATE SKIP LOCKED`), so nodes claiming work do not wait for each other's writes.
    public func writeLockingRows<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withWriter { connection in try connection.transaction(immediate: false, body) }
    }

    /// Holds `lock` with `pg_try_advisory_xact_lock` in a transaction on a session of its own, for as long as `body`
    /// runs. The lock ends with that transaction: at COMMIT, or when the session ends because this process died, or
    /// because it was idle in the transaction for longer than `lease` (`idle_in_transaction_session_timeout`), as it
    /// is when the process is frozen. `stillHeld` asks the session, so a process that wakes after losing the lock
    /// finds out before it acts.
    public func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (_ stillHeld: () -> Bool) throws -> T) throws -> T? {
        let connection = try PostgresConnection(url: url)
        try connection.execute("SET idle_in_transaction_session_timeout = \(max(1, lease.milliseconds))")
        try connection.execute("BEGIN")
        guard try connection.query("SELECT pg_try_advisory_xact_lock(?)", [.integer(lock.rawValue)]).first?.int(0) == 1 else {
            try? connection.execute("COMMIT")
            return nil
        }
        defer { try? connection.execute("COMMIT") }
        return try body { connection.isUsable && connection.isInTransaction && (try? connection.query("SELECT 1", [])) != nil }
    }

    /// Waits on a session that listens to the announcement channel. Each wakeup, lost connection or timeout
    /// returns, and the caller reads the revision again: a notification only says "look".
    public func waitForAnnouncement(timeout: Duration) throws {
        try announcements.withLock { listener in
            if listener == nil { listener = try PostgresNotificationListener(url: url, channel: ConfigurationAnnouncement.channel) }
            _ = try listener?.wait(timeout: timeout)
        }
    }
}
