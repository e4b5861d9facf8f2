import CSQLite

/// A prepared statement; finalized when the object goes away.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(connection.handle, sql, -1, 0, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw connection.error(status, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ values: [SQLValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .integer(let number): status = sqlite3_bind_int64(handle, index, number)
            case .real(let number): status = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                status = text.utf8CString.withUnsafeBufferPointer {
                    vouch_sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count - 1))
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { vouch_sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
            }
            guard status == SQLITE_OK else { throw connection.error(status, sql: sql) }
        }
    }

    /// Runs the statement to completion and collects its rows.
    func rows() throws(SQLiteError) -> [SQLRow] {
        defer { sqlite3_reset(handle); sqlite3_clear_bindings(handle) }
        var rows: [SQLRow] = []
        let columnCount = sqlite3_column_count(handle)
        while true {
            let status = sqlite3_step(handle)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw connection.error(status, sql: sql) }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                values.append(value(at: column))
            }
            rows.append(SQLRow(values: values))
        }
    }

    private func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
