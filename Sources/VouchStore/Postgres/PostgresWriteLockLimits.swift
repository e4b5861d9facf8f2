/// How long a write transaction may wait for the write lock every `vouchd` shares, and how long it may hold it idle.
public struct PostgresWriteLockLimits: Sendable, Equatable {
    /// How long a write waits for another node's write transaction before failing with `isLockTimeout`, which the API
    /// answers with 503 and `Retry-After`, as SQLite's busy timeout.
    public var wait: Duration
    /// How long a write transaction may sit idle between statements while it holds the lock before the server ends
    /// its session. A `vouchd` frozen or cut off mid-transaction would otherwise stop every node's writes until its
    /// TCP connection died; the store's write transactions run their statements back to back, milliseconds apart.
    public var idleHold: Duration

    public init(wait: Duration = .seconds(5), idleHold: Duration = .seconds(15)) {
        self.wait = wait
        self.idleHold = idleHold
    }

    /// The statements that open a write transaction: both limits apply to this transaction only (`SET LOCAL`), then
    /// the transaction-scoped advisory lock, released by COMMIT or ROLLBACK. One round trip: the key is a constant.
    func beginStatements(lockKey: Int64) -> String {
        """
        BEGIN; SET LOCAL lock_timeout = \(max(1, wait.milliseconds)); \
        SET LOCAL idle_in_transaction_session_timeout = \(max(1, idleHold.milliseconds)); \
        SELECT pg_advisory_xact_lock(\(lockKey))
        """
    }
}
