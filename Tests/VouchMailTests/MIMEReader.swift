import Foundation

/// Reads back what `MailMessage` writes, independently of its code: header fields unfolded with their RFC 2047 words
/// decoded, a multipart body cut at its boundary, and each part's body decoded from base64 or quoted-printable.
struct MIMEReader {
    struct Entity {
        /// Names and values as written, unfolded but not decoded.
        var fields: [(name: String, value: String)]
        var body: String

        func values(_ name: String) -> [String] { fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }
        func value(_ name: String) -> String? { values(name).first }
        func decoded(_ name: String) -> String? { value(name).map(MIMEReader.decodeWords) }

        /// A parameter of a header (`boundary`, `charset`), without quotes.
        func parameter(_ name: String, of field: String) -> String? {
            guard let value = value(field) else { return nil }
            for piece in value.split(separator: ";").dropFirst() {
                let pair = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2, pair[0].lowercased() == name { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            }
            return nil
        }

        /// The body decoded by its Content-Transfer-Encoding, as UTF-8 text.
        var decodedBody: String {
            switch value("Content-Transfer-Encoding")?.lowercased() {
            case "base64":
                let data = Data(base64Encoded: body, options: .ignoreUnknownCharacters) ?? Data()
                return String(decoding: data, as: UTF8.self)
            case "quoted-printable": return String(decoding: MIMEReader.decodeQuotedPrintable(body), as: UTF8.self)
            default: return body
            }
        }
    }

    static func entity(_ text: String) -> Entity {
        let (head, body) = text.range(of: "\r\n\r\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
        var fields: [(name: String, value: String)] = []
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t"), !fields.isEmpty {
                fields[fields.count - 1].value += line
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
            }
        }
        return Entity(fields: fields, body: body)
    }

    /// The parts between `--boundary` lines, up to the closing `--boundary--`.
    static func parts(of entity: Entity) -> [Entity] {
        guard let boundary = entity.parameter("boundary", of: "Content-Type") else { return [] }
        let delimiter = "--" + boundary
        var sections = entity.body.components(separatedBy: "\r\n" + delimiter)
        // The first delimiter opens the body, without a CRLF before it.
        guard sections[0].hasPrefix(delimiter) else { return [] }
        sections[0] = String(sections[0].dropFirst(delimiter.count))
        guard let closing = sections.firstIndex(where: { $0.hasPrefix("--") }) else { return [] }
        // Each part begins after the CRLF that ends its delimiter line ("\r\n" is one Character).
        return sections[..<closing].map { MIMEReader.entity(String($0.dropFirst())) }
    }

    /// RFC 2047 words (`=?UTF-8?B?…?=` or `?Q?`) decoded, and the white space between two adjacent words dropped.
    static func decodeWords(_ value: String) -> String {
        let word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/
        var output = ""
        var rest = Substring(value)
        var afterWord = false
        while let match = rest.firstMatch(of: word) {
            let between = rest[..<match.range.lowerBound]
            if !(afterWord && between.allSatisfy(\.isWhitespace)) { output += between }
            let text = String(match.output.3)
            let bytes = match.output.2.lowercased() == "b"
                ? Array(Data(base64Encoded: text) ?? Data())
                : decodeQuotedPrintable(text.replacingOccurrences(of: "_", with: " "))
            output += String(decoding: bytes, as: UTF8.self)
            rest = rest[match.range.upperBound...]
            afterWord = true
        }
        return output + rest
    }

    static func decodeQuotedPrintable(_ text: String) -> [UInt8] {
        let bytes = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count, let byte = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16) {
                output.append(byte)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }
}
