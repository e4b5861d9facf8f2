/// A value bound to or read from a statement, in SQLite or PostgreSQL.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }

    public static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    public static func optional(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
}
