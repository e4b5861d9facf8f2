/// The database could not take the work at this moment; nothing about the request itself is wrong, and the same
/// call may succeed when sent again.
///
/// The store reports its dialects' failures of this kind (SQLite's busy and full-disk codes, PostgreSQL's lock
/// timeout, serialization failure and lost connection) as this one error, so nothing above it names SQLite or
/// PostgreSQL. Other dialect errors (a constraint the store did not expect, a syntax error) pass unchanged.
public struct StoreUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// Another holder kept the write lock past the time a write waits for it; the transaction was rolled back.
        case busy(heldBy: LockHolder)
        /// The connection to the database was lost or the server is going away: a write's outcome is unknown.
        case unreachable
        /// The file system holding the database is full; the transaction was rolled back.
        case diskFull
    }

    /// Who kept the write lock from a write that gave up waiting.
    public enum LockHolder: Sendable, Equatable {
        /// Another connection to the same SQLite file: a backup, an operator's `sqlite3` shell.
        case anotherConnection
        /// Another `vouchd` sharing the PostgreSQL database (or a transaction of its that conflicted with this one).
        case anotherVouchd
    }

    public var reason: Reason
    /// What the database said, for the operator's log: its code, message and statement, never bound values.
    public var cause: String

    public init(_ reason: Reason, cause: String) {
        self.reason = reason
        self.cause = cause
    }

    /// The database's own words, so the operator's log names the database and what it said.
    public var description: String { cause }
}

extension StoreUnavailable {
    /// The store's error for `error` when it is a dialect's way of saying the database could not take the work now;
    /// nil for every other error.
    init?(reporting error: any Error) {
        let reason: Reason? = switch error {
        case let sqlite as SQLiteError: sqlite.unavailability
        case let postgres as PostgresError: postgres.unavailability
        default: nil
        }
        guard let reason else { return nil }
        self.init(reason, cause: String(describing: error))
    }

    /// Runs `body`, throwing the store's error in place of a dialect error that `init(reporting:)` recognises.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            if let unavailable = StoreUnavailable(reporting: error) { throw unavailable }
            throw error
        }
    }
}
