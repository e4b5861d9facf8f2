import Foundation
import Testing
@testable import VouchConsoleKit

/// The catalogs against the code: every key is used by a page, and every Japanese text is a translation. (A key
/// missing from one catalog, or with other placeholders, already stops the build: see vouch-embed's MessageCatalog.)
struct MessageCatalogTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Swift sources of the console, where pages name their messages as `.someKey`, and of the mails.
    static func consoleSources() throws -> String {
        var text = ""
        for folder in ["Sources/VouchConsoleKit", "Sources/VouchConsole", "Sources/VouchNotifications"] {
            let root = repository.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" { text += try String(contentsOf: file, encoding: .utf8) + "\n" }
        }
        return text
    }

    @Test func everyKeyIsUsedByTheConsole() throws {
        let sources = try Self.consoleSources()
        let unused = MessageKey.allCases.filter { key in
            let name = "\(key)"
            return sources.ranges(of: "." + name).allSatisfy { range in
                sources[range.upperBound...].first.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
            }
        }
        #expect(unused.isEmpty, "keys no page uses: \(unused.map(\.rawValue)); remove them from every catalog")
    }

    @Test func everyJapaneseTextIsTranslated() {
        let copied = MessageKey.allCases.filter { $0.ja == $0.en }
        #expect(copied.isEmpty, "Japanese texts equal to the English: \(copied.map(\.rawValue))")
    }

    @Test func theCatalogFilesHoldTheCompiledKeys() throws {
        for language in Language.allCases {
            let text = try String(contentsOf: Self.repository.appendingPathComponent("Catalogs/\(language.rawValue).txt"), encoding: .utf8)
            let keys = text.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains(" = ") }.map { String($0.prefix { $0 != " " }) }
            #expect(keys == MessageKey.allCases.map(\.rawValue), "Catalogs/\(language.rawValue).txt")
        }
    }
}
