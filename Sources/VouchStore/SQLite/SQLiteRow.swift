/// One result row, read by column position.
public struct SQLiteRow: Sendable {
    public var values: [SQLiteValue]

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
