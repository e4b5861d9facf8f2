/// A failed PostgreSQL call: the SQLSTATE, the server's primary message and the statement's SQL.
///
/// Bound values are never part of it, nor the server's DETAIL line (for a unique violation it quotes the key's
/// value), nor the connection string's password, so an error can be logged without leaking personal data.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505`); nil when the failure happened in the client (a lost connection).
    public var sqlState: String?
    public var message: String
    public var sql: String?
    /// The connection itself was found broken (libpq's status was bad, or a call returned no result at all).
    var connectionBroken: Bool

    public init(sqlState: String?, message: String, sql: String?, connectionBroken: Bool = false) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.connectionBroken = connectionBroken
    }

    /// The connection is gone or the server is going away: the statement's outcome is unknown (for a COMMIT) and the
    /// connection must be replaced. Class 08 is "connection exception"; 57P01, 57P02, 57P03 are the administrator
    /// shutdown, crash shutdown and "cannot connect now"; 25P03 and 57P05 end a session idle too long.
    public var isConnectionFailure: Bool {
        connectionBroken || sqlState?.hasPrefix("08") == true || Self.sessionEndingStates.contains(sqlState ?? "")
    }

    private static let sessionEndingStates: Set<String> = ["57P01", "57P02", "57P03", "25P03", "57P05"]

    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// `40001` serialization failure or `40P01` deadlock: the transaction was rolled back and may be run again.
    public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }
    /// `55P03` lock not available: the write lock stayed taken past the lock timeout (SQLite's SQLITE_BUSY).
    public var isLockTimeout: Bool { sqlState == "55P03" }

    /// How the store reports this failure, when it means the database could not take the work now.
    var unavailability: StoreUnavailable.Reason? {
        if isLockTimeout || isSerializationFailure { return .busy(heldBy: .anotherVouchd) }
        if isConnectionFailure { return .unreachable }
        return nil
    }

    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
