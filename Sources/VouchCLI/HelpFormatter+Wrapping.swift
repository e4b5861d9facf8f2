extension HelpFormatter {
    /// The widest help line: a terminal, or a braille display of 80 cells, shows every line whole.
    static let width = 80

    /// A help page with every line longer than `width` wrapped at spaces (docs/contracts.md, "CLI").
    static func wrapped(_ page: String) -> String {
        page.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrap(String($0)) }.joined(separator: "\n")
    }

    /// One line as lines of at most `width` characters. A paragraph goes on flush; an item of a list (indented) goes on
    /// two spaces further in; a usage line goes on under its first part; an example goes on with a shell's ` \`, so it
    /// can still be copied and run. Usage and examples break only between whole parts (`[--wcag <criterion> ...]`,
    /// `"TV channel selector"`).
    static func wrap(_ line: String) -> [String] {
        guard line.count > width else { return [line] }
        let indent = String(line.prefix { $0 == " " })
        let text = line.dropFirst(indent.count)
        if text.hasPrefix("Example: ") {
            return fill(parts(text, keepingGroups: true), first: indent, next: indent + "    ", breakMark: " \\")
        }
        if text.hasPrefix("Usage: ") {
            return fill(parts(text, keepingGroups: true), first: indent, next: indent + String(repeating: " ", count: "Usage: ".count))
        }
        return fill(parts(text, keepingGroups: false), first: indent, next: indent.isEmpty ? "" : indent + "  ")
    }

    /// Puts as many parts on each line as fit, `breakMark` ending every line but the last.
    private static func fill(_ parts: [String], first: String, next: String, breakMark: String = "") -> [String] {
        var lines: [String] = []
        var current = first
        var isEmpty = true
        for part in parts {
            if !isEmpty && current.count + 1 + part.count + breakMark.count > width {
                lines.append(current + breakMark)
                current = next
                isEmpty = true
            }
            current += (isEmpty ? "" : " ") + part
            isEmpty = false
        }
        return lines + [current]
    }

    /// The text's words; with `keepingGroups`, the spaces inside quotes, brackets and angle brackets do not separate,
    /// nor those between an option and its value.
    private static func parts(_ text: Substring, keepingGroups: Bool) -> [String] {
        guard keepingGroups else { return text.split(separator: " ").map(String.init) }
        var parts: [String] = []
        var current = ""
        var depth = 0
        var inQuotes = false
        for character in text {
            switch character {
            case "\"": inQuotes.toggle()
            case "[", "<": if !inQuotes { depth += 1 }
            case "]", ">": if !inQuotes { depth = max(0, depth - 1) }
            case " " where depth == 0 && !inQuotes:
                if !current.isEmpty { parts.append(current) }
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        // An option stays with its value: `--platform <platform> ...`, `--title "Label the channel logos"`.
        return parts.reduce(into: []) { merged, part in
            if let last = merged.last, last.hasPrefix("--"), !part.hasPrefix("-"), !part.hasPrefix("[") {
                merged[merged.count - 1] += " " + part
            } else {
                merged.append(part)
            }
        }
    }
}
