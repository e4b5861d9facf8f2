/// A value bound to or read from an SQLite statement.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

    public static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }

    public static func optional(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
}
