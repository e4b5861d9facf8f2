import CSQLite

/// One SQLite connection, closed when the object goes away.
///
/// `@unchecked Sendable`: a connection is only ever used by one thread at a time, guaranteed by
/// `SQLiteDatabase`'s writer mutex and reader pool mutex, which hand a connection to a single caller.
public final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    public var dialect: SQLDialect { .sqlite }
    let handle: OpaquePointer
    private var statementCache: [String: SQLiteStatement] = [:]

    public init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            // "Whether or not an error occurs when it is opened, resources associated with the database connection
            // handle should be released by passing it to sqlite3_close() when it is no longer required."
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw SQLiteError(code: status, message: "\(message): \(path)", sql: nil)
        }
        handle = connection
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ status: Int32, sql: String?) -> SQLiteError {
        // "If the most recent error was caused by a failure of a system call, sqlite3_system_errno() returns its errno",
        // which tells a full disk (ENOSPC) behind a plain SQLITE_IOERR.
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql,
                    systemErrno: sqlite3_system_errno(handle))
    }

    /// Runs one or more statements that take no parameters and return nothing of interest.
    public func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status, sql: sql) }
    }

    /// Runs one statement with parameters and returns its rows; prepared statements are cached per SQL text.
    @discardableResult
    public func query(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> [SQLRow] {
        let statement: SQLiteStatement
        if let cached = statementCache[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(connection: self, sql: sql)
            statementCache[sql] = statement
        }
        try statement.bind(values)
        return try statement.rows()
    }

    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open; false after SQLite rolled one back on its own (a full disk, an I/O error).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// SQLite has one writer per file: IMMEDIATE takes its write lock at BEGIN, not at the first write.
    public func beginWrite() throws(SQLiteError) {
        try execute("BEGIN IMMEDIATE")
    }
}

extension SQLiteConnection {
    /// Runs a statement and hands each row to `body` as it is stepped, without collecting `[SQLRow]`:
    /// for bulk reads (the OFREP snapshot at start), where the collected rows cost time and leave the heap fragmented.
    public func forEachRow(_ sql: String, _ values: [SQLValue], _ body: (SQLRowCursor) throws -> Void) throws {
        let statement: SQLiteStatement
        if let cached = statementCache[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(connection: self, sql: sql)
            statementCache[sql] = statement
        }
        try statement.bind(values)
        defer { sqlite3_reset(statement.handle); sqlite3_clear_bindings(statement.handle) }
        while true {
            let status = sqlite3_step(statement.handle)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error(status, sql: sql) }
            try body(SQLRowCursor(statement: statement.handle))
        }
    }
}
