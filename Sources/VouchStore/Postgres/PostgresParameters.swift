import CPostgres

/// The values of one statement in libpq's arrays, each with the type it is declared as, so the server never guesses.
///
/// Every value travels in binary format: an integer or a float exactly as it is (no decimal text to round), text as
/// its UTF-8 bytes with their length (a NUL byte reaches the server, which refuses it, instead of cutting the string
/// short), a blob as its bytes.
struct PostgresParameters {
    /// `int8`, `float8`, `text`, `bytea` (pg_type.dat).
    static let int8: Oid = 20
    static let float8: Oid = 701
    static let text: Oid = 25
    static let bytea: Oid = 17
    /// A NULL is declared `unknown`: the server takes its type from the context where it has one (`col = ?`,
    /// `INSERT … VALUES (?)`) and keeps it untyped where none does (`SELECT ?`, `? IS NULL`). Declared as 0
    /// (unspecified), the latter fail with 42P18 "could not determine data type of parameter".
    static let unknown: Oid = 705

    let types: [Oid]
    /// Every non-NULL value's bytes, one after another; never empty, so an empty value still has an address
    /// (libpq reads a NULL pointer as SQL NULL).
    private var bytes: [UInt8] = [0]
    /// Where each value lies in `bytes`; nil for NULL.
    private var ranges: [Range<Int>?] = []

    init(_ values: [SQLValue]) {
        types = values.map(Self.type(of:))
        ranges.reserveCapacity(values.count)
        for value in values {
            let start = bytes.count
            switch value {
            case .null:
                ranges.append(nil)
                continue
            case .integer(let number): withUnsafeBytes(of: number.bigEndian) { bytes += $0 }
            case .real(let number): withUnsafeBytes(of: number.bitPattern.bigEndian) { bytes += $0 }
            case .text(let text): bytes += text.utf8
            case .blob(let blob): bytes += blob
            }
            ranges.append(start..<bytes.count)
        }
    }

    static func type(of value: SQLValue) -> Oid {
        switch value {
        case .null: unknown
        case .integer: int8
        case .real: float8
        case .text: text
        case .blob: bytea
        }
    }

    var count: Int32 { Int32(types.count) }

    /// Hands libpq's three arrays (values, lengths, formats) to `body`; they are valid only during the call.
    func withArguments<Result>(
        _ body: (_ values: [UnsafePointer<CChar>?], _ lengths: [Int32], _ formats: [Int32]) -> Result
    ) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                let base = characters.baseAddress!
                let values = ranges.map { range in range.map { UnsafePointer(base + $0.lowerBound) } }
                let lengths = ranges.map { Int32($0?.count ?? 0) }
                return body(values, lengths, [Int32](repeating: 1, count: ranges.count))
            }
        }
    }
}
