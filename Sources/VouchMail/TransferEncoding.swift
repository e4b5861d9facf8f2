import Foundation

/// The two content transfer encodings of RFC 2045 that keep a UTF-8 body within 7-bit lines of at most 76 characters.
enum TransferEncoding: String, Sendable {
    case quotedPrintable = "quoted-printable"
    case base64 = "base64"

    /// The shorter of the two for `bytes`: quoted-printable for text that is mostly ASCII (readable in the raw
    /// message), base64 for Japanese and other text where quoted-printable would triple every byte.
    static func encode(_ bytes: [UInt8]) -> (encoding: TransferEncoding, text: String) {
        let printable = quotedPrintable(bytes)
        let encoded = base64(bytes, lineLength: 76)
        return printable.utf8.count <= encoded.utf8.count ? (.quotedPrintable, printable) : (.base64, encoded)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 2045, 6.7: CRLF line breaks stay hard breaks; `=`, controls, non-ASCII bytes and a space or tab at the end of
    /// a line become `=XX`; longer lines are cut with a soft break (`=` at the end) so that none passes 76 characters.
    static func quotedPrintable(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for (index, line) in lines(of: bytes).enumerated() {
            if index > 0 { output += [0x0D, 0x0A] }
            var lineLength = 0
            for (position, byte) in line.enumerated() {
                let isLast = position == line.count - 1
                let isLiteral = (byte == 0x20 || byte == 0x09) ? !isLast : (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=")
                let token = isLiteral ? [byte] : [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
                // Room for the soft break's `=` unless this is the line's last token.
                let limit = isLast ? 76 : 75
                if lineLength + token.count > limit {
                    output += [UInt8(ascii: "="), 0x0D, 0x0A]
                    lineLength = 0
                }
                output += token
                lineLength += token.count
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Base64 in lines of `lineLength` characters joined by CRLF, or one line when nil (an encoded-word).
    static func base64(_ bytes: [UInt8], lineLength: Int?) -> String {
        let encoded = Array(Data(bytes).base64EncodedString().utf8)
        guard let lineLength else { return String(decoding: encoded, as: UTF8.self) }
        return stride(from: 0, to: encoded.count, by: lineLength)
            .map { String(decoding: encoded[$0..<min($0 + lineLength, encoded.count)], as: UTF8.self) }
            .joined(separator: "\r\n")
    }

    /// The lines of `bytes`, split at CRLF, a lone LF or a lone CR.
    static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(bytes[start..<index])
                index += (byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A) ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.count])
        return lines
    }

    /// Text in canonical form (RFC 2045): every line break CRLF, before it is encoded.
    static func canonicalText(_ text: String) -> [UInt8] {
        Array(lines(of: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\r\n").utf8)
    }
}
