import Foundation

/// One version of the consent text in one language, exactly as a tester reads it before she agrees: the operator's
/// name and contact filled in, the editors' notes left out (docs/invitations.md, "Consent texts").
public struct ConsentText: Sendable, Equatable {
    /// What the text is made of on a page: headings, paragraphs and lists, nothing else.
    public enum Block: Sendable, Equatable {
        case heading(String)
        case paragraph(String)
        case list([String])
    }

    public var version: String
    /// `en` or `ja`.
    public var language: String
    public var body: String

    public init(version: String, language: String, body: String) {
        self.version = version
        self.language = language
        self.body = body
    }

    /// Letters, digits and `.`, `-`, `_`, 1 to 32 characters, starting with a letter or digit: `2026-12`.
    public static func isValidVersion(_ version: String) -> Bool {
        func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        guard let first = version.unicodeScalars.first, isLetterOrDigit(first), version.unicodeScalars.count <= 32 else { return false }
        return version.unicodeScalars.allSatisfy { isLetterOrDigit($0) || ".-_".unicodeScalars.contains($0) }
    }

    public static let versionRule = "letters, digits, '.', '-' and '_', 1 to 32 characters, starting with a letter or digit, such as 2026-12"

    /// The text a template becomes: lines starting with `# ` (notes for whoever edits the file) left out, each
    /// `{operator.name}` and `{operator.contact}` replaced, blank lines at either end removed.
    public init(version: String, language: String, template: String, operatorName: String, operatorContact: String) {
        let lines = template.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .filter { !($0 == "#" || $0.hasPrefix("# ")) }
        let text = lines.joined(separator: "\n")
            .replacingOccurrences(of: "{operator.name}", with: operatorName)
            .replacingOccurrences(of: "{operator.contact}", with: operatorContact)
        self.init(version: version, language: language, body: text.trimmingBlankLines())
    }

    /// The body read as blocks: `## ` starts a heading, `- ` a list item, any other line is a paragraph of its own;
    /// blank lines only separate.
    public var blocks: [Block] {
        var blocks: [Block] = []
        var items: [String] = []
        func endList() {
            if !items.isEmpty { blocks.append(.list(items)) }
            items = []
        }
        for rawLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingWhitespace()
            if line.hasPrefix("- ") {
                items.append(String(line.dropFirst(2)).trimmingWhitespace())
                continue
            }
            endList()
            if line.isEmpty { continue }
            blocks.append(line.hasPrefix("## ") ? .heading(String(line.dropFirst(3)).trimmingWhitespace()) : .paragraph(line))
        }
        endList()
        return blocks
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        trimmingCharacters(in: .whitespaces)
    }

    fileprivate func trimmingBlankLines() -> String {
        var lines = String(self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.trimmingWhitespace().isEmpty { lines.removeFirst() }
        while let last = lines.last, last.trimmingWhitespace().isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
