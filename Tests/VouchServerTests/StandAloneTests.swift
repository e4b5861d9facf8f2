import Foundation
import Testing

/// The repository carries its own design: every Markdown document a file names is in the repository, and no file
/// reaches into a folder beside it.
struct StandAloneTests {
    static let folders = ["Sources", "Tests", "scripts", "deploy", "systemd", "docs", "Schema", "openapi", "Plugins", ".ci"]
    static let topFiles = ["README.md", "RELIABILITY.md", "BENCHMARKS.md", "Package.swift"]

    /// Every text file the checks read, by its path inside the repository.
    func repositoryTexts(_ root: URL) -> [(path: String, text: String)] {
        var texts: [(String, String)] = []
        for folder in StandAloneTests.folders {
            guard let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in files {
                if let text = try? String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(path), encoding: .utf8) {
                    texts.append(("\(folder)/\(path)", text))
                }
            }
        }
        for file in StandAloneTests.topFiles {
            if let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) { texts.append((file, text)) }
        }
        return texts
    }

    @Test func noFilePointsOutsideTheRepository() throws {
        let root = OperationsTests.repository
        let texts = repositoryTexts(root)
        let documents = Set(texts.map { ($0.path as NSString).lastPathComponent }.filter { $0.hasSuffix(".md") })
        // Folders beside the repository, as a relative path from it would name them.
        let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: root.deletingLastPathComponent().path)) ?? [])
            .filter { $0 != root.lastPathComponent }.map { "../" + $0 }
        let markdownName = try Regex(#"[A-Za-z0-9_-]+\.md\b"#)
        var offenders: [String] = []
        for (path, text) in texts {
            for match in text.matches(of: markdownName) where !documents.contains(String(text[match.range])) {
                offenders.append("\(path) names \(text[match.range]), which is not in the repository")
            }
            for sibling in siblings where text.contains(sibling) { offenders.append("\(path) reaches into \(sibling)") }
        }
        #expect(offenders.isEmpty, "\(offenders)")
        // The design a newcomer needs is here instead.
        for doc in ["README.md", "architecture.md", "lifecycle.md", "contracts.md", "privacy.md", "decisions.md"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("docs").appendingPathComponent(doc).path), "docs/\(doc)")
        }
    }
}
