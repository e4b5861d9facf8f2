/// A libpq connection string, in either of libpq's forms: a URL (`postgres://user:secret@host/db?sslmode=require`)
/// or `key=value` pairs (`host=db1 password='s e' dbname=vouch`).
enum PostgresConnectionString {
    /// What a password is replaced with.
    static let mask = "***"

    /// The string with every password removed (the URL's `user:password@`, any `password=` or `sslpassword=`
    /// pair), for logs and messages.
    static func redacted(_ connectionString: String) -> String {
        let bytes = Array(connectionString.utf8)
        let redactedBytes = isURL(connectionString) ? redactedURL(bytes) : redactedPairs(bytes)
        return String(decoding: redactedBytes, as: UTF8.self)
    }

    /// libpq reads a string as a URL when it starts with one of its two schemes.
    static func isURL(_ connectionString: String) -> Bool {
        connectionString.hasPrefix("postgresql://") || connectionString.hasPrefix("postgres://")
    }

    /// `password` and `sslpassword` (the client key's passphrase) are the secrets libpq accepts.
    private static func isSecretKey(_ key: ArraySlice<UInt8>) -> Bool {
        String(decoding: key, as: UTF8.self).lowercased().hasSuffix("password")
    }

    private static func redactedURL(_ bytes: [UInt8]) -> [UInt8] {
        let afterScheme = (bytes.firstIndex(of: UInt8(ascii: ":")) ?? 0) + 3
        let queryStart = bytes[afterScheme...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        var output = Array(bytes[..<afterScheme])
        // The last `@` before the query ends the user part, so a password holding a raw `@` or `/` is covered too.
        let authority = bytes[afterScheme..<queryStart]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")), let colon = bytes[afterScheme..<at].firstIndex(of: UInt8(ascii: ":")) {
            output += bytes[afterScheme...colon] + Array(mask.utf8) + bytes[at..<queryStart]
        } else {
            output += authority
        }
        guard queryStart < bytes.endIndex else { return output }
        output.append(UInt8(ascii: "?"))
        let pairs = bytes[(queryStart + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: "&")) }
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")), isSecretKey(pair[..<equals]) {
                output += pair[...equals] + Array(mask.utf8)
            } else {
                output += pair
            }
        }
        return output
    }

    /// Follows libpq's `key = value` grammar: a value is single-quoted (with `\'` and `\\`) or runs to the next
    /// space, and a backslash escapes the next byte either way.
    private static func redactedPairs(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var position = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        func skipSpaces() {
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        }
        while position < bytes.count {
            var start = position
            skipSpaces()
            let keyStart = position
            while position < bytes.count, !isSpace(bytes[position]), bytes[position] != UInt8(ascii: "=") { position += 1 }
            let key = bytes[keyStart..<position]
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                // Not a pair: libpq refuses such a string, and there is no value to hide.
                output += bytes[start...]
                return output
            }
            position += 1
            skipSpaces()
            output += bytes[start..<position]
            start = position
            let quoted = position < bytes.count && bytes[position] == UInt8(ascii: "'")
            if quoted { position += 1 }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\\") {
                    position += 2
                    continue
                }
                if quoted ? byte == UInt8(ascii: "'") : isSpace(byte) { break }
                position += 1
            }
            if quoted, position < bytes.count { position += 1 }
            position = min(position, bytes.count)
            if isSecretKey(key) {
                output += quoted ? Array("'\(mask)'".utf8) : Array(mask.utf8)
            } else {
                output += bytes[start..<position]
            }
        }
        return output
    }
}
