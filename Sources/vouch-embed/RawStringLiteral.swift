/// A multi-line raw Swift string literal whose value is exactly the given text, whatever it holds.
///
/// In a literal delimited by N `#`, only `"""` followed by N `#` ends it and only `\` followed by N `#` starts
/// an escape; so N is one more than the longest run of `#` after any `"` or `\` in the text. Characters the
/// compiler would not keep as they are get an escape: carriage returns (a multi-line literal turns line
/// breaks into line feeds) and the other control characters but tab and line feed.
struct RawStringLiteral {
    var text: String

    init(_ text: String) {
        self.text = text
    }

    var delimiter: String {
        String(repeating: "#", count: longestHashRunAfterQuoteOrBackslash + 1)
    }

    /// The literal as Swift source: it opens on the current line and closes at the start of a line, so no
    /// indentation is stripped; the line feed added before the closing quotes is not part of the value.
    var source: String {
        let delimiter = delimiter
        var body = ""
        for scalar in text.unicodeScalars {
            if Self.needsEscape(scalar) {
                body += "\\" + delimiter + "u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                body.unicodeScalars.append(scalar)
            }
        }
        return delimiter + "\"\"\"\n" + body + "\n\"\"\"" + delimiter
    }

    var longestHashRunAfterQuoteOrBackslash: Int {
        var longest = 0
        var current: Int?
        for scalar in text.unicodeScalars {
            if scalar == "#", let run = current {
                current = run + 1
                longest = max(longest, run + 1)
            } else {
                current = scalar == "\"" || scalar == "\\" ? 0 : nil
            }
        }
        return longest
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" || scalar == "\t" { return false }
        return scalar.properties.generalCategory == .control
    }
}
