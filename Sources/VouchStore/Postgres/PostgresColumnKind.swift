import CPostgres

/// How a result column's text is read back into an `SQLValue`, chosen by its type (`PQftype`).
///
/// Results come in text format; the kinds give SQLite's answers for the same query: integers and booleans as
/// `.integer`, floats as `.real`, `bytea` as `.blob`, everything else as `.text`.
enum PostgresColumnKind {
    case integer
    case boolean
    case real
    /// `numeric`, what SUM and AVG of integers return: `.integer` when written without a fraction (SUM),
    /// `.real` otherwise (AVG's "2.5000000000000000", as SQLite's AVG returns a float).
    case numeric
    case bytea
    case text

    init(type: Oid) {
        switch type {
        case 20, 21, 23, 26: self = .integer  // int8, int2, int4, oid
        case 16: self = .boolean
        case 700, 701: self = .real  // float4, float8
        case 1700: self = .numeric
        case 17: self = .bytea
        default: self = .text
        }
    }

    /// Reads one non-NULL value from the text libpq returned.
    func value(_ text: UnsafeBufferPointer<UInt8>) -> SQLValue {
        switch self {
        case .text: return .text(String(decoding: text, as: UTF8.self))
        case .integer: return Self.integer(text) ?? .text(String(decoding: text, as: UTF8.self))
        case .boolean: return .integer(text.first == UInt8(ascii: "t") ? 1 : 0)
        case .real: return .real(Double(String(decoding: text, as: UTF8.self)) ?? .nan)
        case .numeric: return Self.integer(text) ?? .real(Double(String(decoding: text, as: UTF8.self)) ?? .nan)
        case .bytea: return .blob(Self.bytes(fromHex: text))
        }
    }

    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> SQLValue? {
        Int64(String(decoding: text, as: UTF8.self)).map(SQLValue.integer)
    }

    /// `bytea` in hex output (`\x0a0b…`), which every session asks for (`bytea_output = 'hex'`).
    static func bytes(fromHex text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return Array(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var index = 2
        while index + 1 < text.count {
            bytes.append(nibble(text[index]) << 4 | nibble(text[index + 1]))
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: 0
        }
    }
}
