import CSQLite
import Foundation

/// A failed SQLite call: the extended result code, SQLite's message and the statement's SQL.
///
/// Bound values are never part of it, so an error can be logged without leaking personal data.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var sql: String?
    /// The operating system's `errno` behind an I/O error (`sqlite3_system_errno`), 0 when there is none.
    public var systemErrno: Int32 = 0

    public var primaryCode: Int32 { code & 0xFF }
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
    /// Another connection (this process's or another's) holds the lock this call needed, past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    /// The file system is full: SQLITE_FULL, or an I/O error whose `errno` is ENOSPC or EDQUOT.
    public var isDiskFull: Bool {
        primaryCode == SQLITE_FULL || (primaryCode == SQLITE_IOERR && (systemErrno == ENOSPC || systemErrno == EDQUOT))
    }

    /// How the store reports this failure, when it means the database could not take the work now.
    var unavailability: StoreUnavailable.Reason? {
        if isBusy { return .busy(heldBy: .anotherConnection) }
        if isDiskFull { return .diskFull }
        return nil
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if primaryCode == SQLITE_IOERR, systemErrno != 0 { text += " (errno \(systemErrno): \(String(cString: strerror(systemErrno))))" }
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
