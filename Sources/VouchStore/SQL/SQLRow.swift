import CSQLite
import Glibc

/// One result row, read by column position.
public struct SQLRow: Sendable {
    public var values: [SQLValue]

    public func string(_ column: Int) -> String {
        switch values[column] {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        case .null: ""
        }
    }

    public func optionalString(_ column: Int) -> String? {
        if case .null = values[column] { return nil }
        return string(column)
    }

    public func int(_ column: Int) -> Int { Int(int64(column)) }

    public func int64(_ column: Int) -> Int64 {
        switch values[column] {
        case .integer(let number): number
        case .real(let number): Int64(number)
        case .text(let text): Int64(text) ?? 0
        case .blob, .null: 0
        }
    }

    public func optionalInt(_ column: Int) -> Int? {
        if case .null = values[column] { return nil }
        return int(column)
    }

    public func blob(_ column: Int) -> [UInt8] {
        switch values[column] {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: []
        }
    }
}

/// The current row of a bulk read (`SQLConnection.forEachRow`); valid only inside the body it is handed to.
///
/// On SQLite it reads the statement's columns in place, so a bulk read allocates nothing per row but its strings.
public struct SQLRowCursor {
    private let statement: OpaquePointer?
    private let row: SQLRow?

    init(statement: OpaquePointer) {
        self.statement = statement
        self.row = nil
    }

    init(row: SQLRow) {
        self.statement = nil
        self.row = row
    }

    public func string(_ column: Int) -> String {
        guard let statement else { return row?.string(column) ?? "" }
        guard let text = sqlite3_column_text(statement, Int32(column)) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, Int32(column)))), as: UTF8.self)
    }

    /// Whether the column's text is `other`, compared in place: no String is made for the column.
    public func text(_ column: Int, equals other: String) -> Bool {
        guard let statement else { return row?.string(column) == other }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        guard let text = sqlite3_column_text(statement, Int32(column)) else { return other.isEmpty }
        var other = other
        // memcmp, not `elementsEqual`, which compared byte by byte: this runs once per targeted key at start.
        return other.withUTF8 { $0.count == count && (count == 0 || memcmp($0.baseAddress!, text, count) == 0) }
    }

    public func int(_ column: Int) -> Int {
        guard let statement else { return row?.int(column) ?? 0 }
        return Int(sqlite3_column_int64(statement, Int32(column)))
    }

    public func optionalInt(_ column: Int) -> Int? {
        guard let statement else { return row?.optionalInt(column) }
        return sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL ? nil : int(column)
    }
}
