/// Writes header fields as RFC 5322 lines of at most 78 characters, folded between words, with text that is not plain
/// ASCII carried in RFC 2047 encoded-words.
enum HeaderWriter {
    static let maxLineLength = 78
    /// UTF-8 bytes per encoded-word: 42 bytes are 56 base64 characters, a word of 68, which fits after `Subject: `
    /// on the first line (RFC 2047 allows words of 75) and never splits a character between words.
    static let bytesPerEncodedWord = 42

    /// `Name: token token…`, folded before a token that would pass the line's limit. A single token longer than a
    /// line stays whole (an address or a URL cannot be folded); RFC 5322's hard limit of 998 still holds for those.
    static func field(_ name: String, tokens: [String]) -> String {
        var text = name + ":"
        var lineLength = text.count
        for token in tokens {
            if lineLength + 1 + token.count > maxLineLength, lineLength > name.count + 1 {
                text += "\r\n"
                lineLength = 0
            }
            text += " " + token
            lineLength += 1 + token.count
        }
        return text + "\r\n"
    }

    /// Unstructured text (the subject): its words as they are when it is printable ASCII that folds cleanly, else
    /// encoded-words.
    static func unstructured(_ name: String, _ value: String) -> String {
        let words = value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let foldsCleanly = isPlainASCII(value) && !value.contains("=?") && words.allSatisfy { !$0.isEmpty }
            && words.allSatisfy { $0.count <= maxLineLength - name.count - 2 }
        return field(name, tokens: foldsCleanly ? words : encodedWords(value))
    }

    /// An address with its display name: a quoted string when the name is printable ASCII short enough for one line,
    /// else encoded-words (RFC 2047 allows them in a phrase, never inside quotes).
    static func address(_ name: String, _ address: MailAddress) -> String {
        guard let displayName = address.displayName else { return field(name, tokens: [address.address]) }
        let quoted = "\"" + displayName.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        let phrase = isPlainASCII(displayName) && quoted.count <= maxLineLength - name.count - 2 ? [quoted] : encodedWords(displayName)
        return field(name, tokens: phrase + ["<\(address.address)>"])
    }

    /// `=?UTF-8?B?…?=` words, each holding whole Unicode scalars; a reader joins adjacent words without the space.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        func flush() {
            guard !chunk.isEmpty else { return }
            words.append("=?UTF-8?B?" + TransferEncoding.base64(chunk, lineLength: nil) + "?=")
            chunk = []
        }
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > bytesPerEncodedWord { flush() }
            chunk += bytes
        }
        flush()
        return words
    }

    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }
}
