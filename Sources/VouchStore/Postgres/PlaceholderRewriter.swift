/// Rewrites the store's SQLite placeholders to PostgreSQL's: `?` and `?N` become `$N`.
///
/// SQLite numbers a bare `?` one past the largest number used so far, and `?N` explicitly, so `?1` may appear several
/// times; the same numbers become `$N`. A `?` inside a string literal (`'…'`, `E'…'`, `$tag$…$tag$`), a quoted
/// identifier (`"…"`) or a comment (`--`, nested `/* */`) is text and stays as it is, following PostgreSQL's lexer.
struct PlaceholderRewriter {
    /// A statement in PostgreSQL's placeholders and how many parameters it numbers (the largest N).
    struct Rewritten: Sendable, Equatable {
        var sql: String
        var parameterCount: Int
    }

    static func rewrite(_ sql: String) -> Rewritten {
        var scanner = PlaceholderScanner(Array(sql.utf8))
        scanner.run()
        return Rewritten(sql: String(decoding: scanner.output, as: UTF8.self), parameterCount: scanner.largestNumber)
    }
}

/// The byte-level pass behind `PlaceholderRewriter`; every delimiter it looks for is ASCII, so UTF-8 passes through.
private struct PlaceholderScanner {
    let input: [UInt8]
    var position = 0
    var output: [UInt8] = []
    var largestNumber = 0

    init(_ input: [UInt8]) {
        self.input = input
        output.reserveCapacity(input.count + 8)
    }

    mutating func run() {
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "'"): copyQuoted(close: UInt8(ascii: "'"), backslashEscapes: startsEscapeString())
            case UInt8(ascii: "\""): copyQuoted(close: UInt8(ascii: "\""), backslashEscapes: false)
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"): copyLineComment()
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"): copyBlockComment()
            case UInt8(ascii: "$") where !previousIsIdentifierByte: copyDollarQuotedOrByte()
            case UInt8(ascii: "?"): replacePlaceholder()
            default:
                output.append(byte)
                position += 1
            }
        }
    }

    private var next: UInt8? { position + 1 < input.count ? input[position + 1] : nil }

    private var previousIsIdentifierByte: Bool {
        position > 0 && Self.isIdentifierByte(input[position - 1])
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
    }

    /// `E'…'` (an escape string, where `\'` does not close it): an `E` that is a word of its own right before the quote.
    private func startsEscapeString() -> Bool {
        guard position > 0, input[position - 1] == UInt8(ascii: "E") || input[position - 1] == UInt8(ascii: "e") else { return false }
        return position < 2 || !Self.isIdentifierByte(input[position - 2])
    }

    /// Copies a literal or quoted identifier through its closing quote; a doubled quote reads as close-then-open,
    /// which copies the same bytes.
    private mutating func copyQuoted(close: UInt8, backslashEscapes: Bool) {
        output.append(input[position])
        position += 1
        while position < input.count {
            let byte = input[position]
            output.append(byte)
            position += 1
            if backslashEscapes, byte == UInt8(ascii: "\\"), position < input.count {
                output.append(input[position])
                position += 1
            } else if byte == close {
                return
            }
        }
    }

    private mutating func copyLineComment() {
        while position < input.count, input[position] != UInt8(ascii: "\n") {
            output.append(input[position])
            position += 1
        }
    }

    /// PostgreSQL's block comments nest (SQLite's do not, but PostgreSQL is the one reading this text).
    private mutating func copyBlockComment() {
        var depth = 0
        while position < input.count {
            if input[position] == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                depth += 1
                output.append(contentsOf: input[position...position + 1])
                position += 2
            } else if input[position] == UInt8(ascii: "*"), next == UInt8(ascii: "/") {
                depth -= 1
                output.append(contentsOf: input[position...position + 1])
                position += 2
                if depth == 0 { return }
            } else {
                output.append(input[position])
                position += 1
            }
        }
    }

    /// `$tag$…$tag$` or `$$…$$` is a string; any other `$` (as in `$1`) is copied as it is.
    private mutating func copyDollarQuotedOrByte() {
        var end = position + 1
        if end < input.count, Self.isIdentifierStart(input[end]) {
            while end < input.count, Self.isIdentifierByte(input[end]), input[end] != UInt8(ascii: "$") { end += 1 }
        }
        guard end < input.count, input[end] == UInt8(ascii: "$") else {
            output.append(input[position])
            position += 1
            return
        }
        let delimiter = input[position...end]
        output.append(contentsOf: delimiter)
        position = end + 1
        while position < input.count {
            if input[position] == UInt8(ascii: "$"), input[position...].starts(with: delimiter) {
                output.append(contentsOf: delimiter)
                position += delimiter.count
                return
            }
            output.append(input[position])
            position += 1
        }
    }

    /// `?N` keeps its number; a bare `?` takes one past the largest so far, as SQLite numbers it.
    private mutating func replacePlaceholder() {
        position += 1
        let start = position
        var number = 0
        while position < input.count, Self.isDigit(input[position]) {
            // Capped so a long run of digits cannot overflow; PostgreSQL refuses a number that large by itself.
            number = min(number * 10 + Int(input[position] - UInt8(ascii: "0")), 1_000_000)
            position += 1
        }
        if position == start { number = largestNumber + 1 }
        largestNumber = max(largestNumber, number)
        output.append(UInt8(ascii: "$"))
        output.append(contentsOf: String(number).utf8)
    }
}
