#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One language's catalog of the console's messages (`Catalogs/en.txt`): a `key = text` line per message, UTF-8.
///
/// Blank lines and lines starting with `#` are skipped. A key is dotted words of letters and digits, starting with a
/// lowercase letter (`home.fixWaiting`); its Swift name joins the words in camel case (`homeFixWaiting`). The text is
/// everything after the first ` = `, without surrounding blanks; a placeholder is a name in braces (`{count}`).
struct MessageCatalog: Equatable {
    struct Entry: Equatable {
        var key: String
        var text: String
        var line: Int
    }

    var language: String
    var entries: [Entry]

    init(language: String, text: String) throws {
        self.language = language
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Self.trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "Catalogs/\(language).txt:\(index + 1)"
            guard let equals = line.firstRange(of: " = ") else {
                throw EmbedError("\(place): a message is 'key = text', with a space on each side of '='")
            }
            let key = String(line[..<equals.lowerBound])
            let value = Self.trimmed(line[equals.upperBound...])
            guard Self.isValidKey(key) else {
                throw EmbedError("\(place): '\(key)' is not a key: dotted words of a-z, A-Z and 0-9, each starting with a letter, the first lowercase")
            }
            guard !value.isEmpty else { throw EmbedError("\(place): '\(key)' has no text") }
            if let first = seen[key] { throw EmbedError("\(place): '\(key)' is already on line \(first)") }
            seen[key] = index + 1
            entries.append(Entry(key: key, text: value, line: index + 1))
        }
        self.entries = entries
    }

    /// Without blanks (spaces, tabs, a carriage return from a file saved with CRLF) at either end.
    static func trimmed(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    static func isValidKey(_ key: String) -> Bool {
        let words = key.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = words.first?.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return words.allSatisfy { word in
            guard let initial = word.unicodeScalars.first, Self.isLetter(initial) else { return false }
            return word.unicodeScalars.allSatisfy { Self.isLetter($0) || ("0"..."9").contains($0) }
        }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }

    /// `home.fixWaiting` → `homeFixWaiting`.
    static func swiftName(_ key: String) -> String {
        let words = key.split(separator: ".")
        return words.enumerated().map { index, word in index == 0 ? String(word) : word.prefix(1).uppercased() + word.dropFirst() }.joined()
    }

    /// The names in braces, in order of first appearance: `{count} testers` → `["count"]`.
    static func placeholders(_ text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Checks that every catalog has exactly the reference's keys, with the same placeholders, and that no two keys
    /// share a Swift name; the error names each difference, so one build run shows them all.
    static func checkAgree(_ catalogs: [MessageCatalog]) throws {
        guard let reference = catalogs.first else { throw EmbedError("Catalogs/ holds no catalog") }
        var problems: [String] = []
        var names: [String: String] = [:]
        for entry in reference.entries {
            let name = swiftName(entry.key)
            if let other = names[name] { problems.append("'\(other)' and '\(entry.key)' are both \(name) in Swift; rename one") }
            names[name] = entry.key
        }
        let referenceTexts = Dictionary(uniqueKeysWithValues: reference.entries.map { ($0.key, $0.text) })
        for catalog in catalogs.dropFirst() {
            let texts = Dictionary(uniqueKeysWithValues: catalog.entries.map { ($0.key, $0.text) })
            for entry in reference.entries {
                guard let text = texts[entry.key] else {
                    problems.append("Catalogs/\(catalog.language).txt has no '\(entry.key)' (Catalogs/\(reference.language).txt:\(entry.line))")
                    continue
                }
                let expected = Set(placeholders(entry.text)), found = Set(placeholders(text))
                if expected != found {
                    problems.append("Catalogs/\(catalog.language).txt: '\(entry.key)' has placeholders \(found.sorted()), "
                        + "Catalogs/\(reference.language).txt \(expected.sorted())")
                }
            }
            for entry in catalog.entries where referenceTexts[entry.key] == nil {
                problems.append("Catalogs/\(catalog.language).txt:\(entry.line): '\(entry.key)' is in no other catalog (Catalogs/\(reference.language).txt)")
            }
        }
        if !problems.isEmpty { throw EmbedError(problems.joined(separator: "\n")) }
    }

    /// The Swift source: `MessageKey`, one case per key, and one property per language giving each key's text.
    static func source(_ catalogs: [MessageCatalog]) throws -> String {
        try checkAgree(catalogs)
        let reference = catalogs[0]
        let cases = reference.entries.map { "    case \(swiftName($0.key)) = \"\($0.key)\"\n" }.joined()
        let languages = catalogs.map { catalog in
            let texts = Dictionary(uniqueKeysWithValues: catalog.entries.map { ($0.key, $0.text) })
            let arms = reference.entries.map { entry in
                "        case .\(swiftName(entry.key)):\n            \(RawStringLiteral(texts[entry.key] ?? "").source)\n"
            }.joined()
            return """
                    /// The text in Catalogs/\(catalog.language).txt.
                    var \(catalog.language): String {
                        switch self {
                \(arms)        }
                    }

                """
        }
        return """
            // Generated at build time by the EmbedMessages plugin from Catalogs/*.txt; do not edit.

            /// Every message of the console, by its key in the catalogs (`Catalogs/*.txt`): each language has every key,
            /// or the build fails.
            public enum MessageKey: String, CaseIterable, Sendable {
            \(cases)}

            extension MessageKey {
            \(languages.joined(separator: "\n"))}

            """
    }

    /// The catalogs in `directory`, `en` first (the reference for keys), then the others by name.
    static func all(in directory: String) throws -> [MessageCatalog] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw EmbedError("cannot list \(directory): \(error)")
        }
        let languages = names.filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }
            .sorted { ($0 == "en" ? 0 : 1, $0) < ($1 == "en" ? 0 : 1, $1) }
        guard languages.first == "en" else { throw EmbedError("\(directory) has no en.txt, the catalog every other is checked against") }
        return try languages.map { try MessageCatalog(language: $0, text: TextFile.read(directory + "/" + $0 + ".txt")) }
    }
}
