import Foundation
import VouchServerKit

/// Reads the targeting key from the one body shape nearly every OFREP request has, `{"context":{"targetingKey":"…"}}`,
/// without building a JSON tree, which would be the largest part of the OFREP request's own work after routing.
///
/// It understands only that shape, JSON whitespace between tokens, and a key of printable ASCII without escapes.
/// Anything else (another member, an escape, a number, non-ASCII text, a truncated body) is `nil`, and the caller
/// parses the body in full, so every answer, and every error's words, stay those of `JSONParser`.
package enum TargetingKeyScanner {
    /// The key, or nil when the body is not exactly the shape above.
    static func targetingKey(in body: [UInt8]) -> String? {
        targetingKeyRange(in: body).map { range in body.withUnsafeBytes { String(decoding: $0[range], as: UTF8.self) } }
    }

    /// Where the key's bytes are in the body (between its quotes), or nil when the body is not exactly the shape above.
    static func targetingKeyRange(in body: [UInt8]) -> Range<Int>? {
        body.withUnsafeBufferPointer { bytes in targetingKeyRange(in: bytes) }
    }

    /// The same for a body where it is (the direct handler's, in the request's state).
    package static func targetingKeyRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        compactKeyRange(in: bytes) ?? spacedKeyRange(in: bytes)
    }

    /// The shape without whitespace, as SDKs send it: two fixed runs of bytes compared with `memcmp`, and the key
    /// between them checked byte by byte. The token-by-token cursor below takes three times as long, and on every
    /// request its code would be a tenth of what an OFREP request runs of Vouch's own. Nil for anything else, which
    /// the cursor then reads.
    static func compactKeyRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let head = compactHead.utf8CodeUnitCount
        let tail = compactTail.utf8CodeUnitCount
        guard bytes.count >= head + tail, let base = bytes.baseAddress, memcmp(base, compactHead.utf8Start, head) == 0,
              memcmp(base + bytes.count - tail, compactTail.utf8Start, tail) == 0 else { return nil }
        let key = head..<(bytes.count - tail)
        for index in key where bytes[index] == UInt8(ascii: "\"") || !isPlain(bytes[index]) { return nil }
        return key
    }

    /// A byte a key may hold inside its quotes here: printable ASCII but the backslash (an escape is the parser's).
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\")
    }

    /// The shape with any JSON whitespace between its tokens, read token by token.
    static func spacedKeyRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var scanner = Cursor(bytes: bytes)
        guard scanner.expect(UInt8(ascii: "{")), scanner.expectName(contextName), scanner.expect(UInt8(ascii: ":")),
              scanner.expect(UInt8(ascii: "{")), scanner.expectName(targetingKeyName), scanner.expect(UInt8(ascii: ":")),
              let key = scanner.plainString(), scanner.expect(UInt8(ascii: "}")), scanner.expect(UInt8(ascii: "}")),
              scanner.atEnd else { return nil }
        return key
    }

    /// Literals, whose bytes stay where they are: no array is retained per request.
    private static let contextName: StaticString = #""context""#
    private static let targetingKeyName: StaticString = #""targetingKey""#
    private static let compactHead: StaticString = #"{"context":{"targetingKey":""#
    private static let compactTail: StaticString = #""}}"#

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// Skips JSON's four whitespace bytes (RFC 8259 §2).
        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A member name, quotes included, exactly as given (no escapes).
        mutating func expectName(_ name: StaticString) -> Bool {
            skipWhitespace()
            let count = name.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != name.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// Where a string of printable ASCII without `\` is, quotes left out; nil for anything else, left to the full parser.
        mutating func plainString() -> Range<Int>? {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                guard TargetingKeyScanner.isPlain(bytes[end]) else { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            return start..<end
        }

        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return index == bytes.count
            }
        }
    }
}
