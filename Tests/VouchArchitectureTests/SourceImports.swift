import Foundation

/// The modules a folder's Swift files import, with the file and line of each import, for messages that point at it.
struct SourceImports {
    struct Import: Equatable {
        var module: String
        var file: String
        var line: Int
    }

    var imports: [Import]

    init(folder: URL, relativeTo repository: URL) throws {
        var found: [Import] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = String(file.path.dropFirst(repository.path.count + 1))
            // Lines inside a multi-line string literal (a Python script a test runs) are text, not imports.
            var inLiteral = false
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let quotes = line.ranges(of: "\"\"\"").count
                defer { if quotes % 2 == 1 { inLiteral.toggle() } }
                if !inLiteral, quotes == 0, let module = SourceImports.importedModule(in: line) {
                    found.append(Import(module: module, file: relative, line: index + 1))
                }
            }
        }
        imports = found
    }

    /// `import X`, `@testable import X`, `@preconcurrency import X`, `public import X`, `import struct X.Y`: X.
    static func importedModule(in line: Substring) -> String? {
        // Swift's Regex is slow in debug builds; most lines are not imports and are passed over first.
        guard line.contains("import ") else { return nil }
        let pattern = /^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:public\s+|internal\s+|package\s+|private\s+|fileprivate\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)/
        return line.firstMatch(of: pattern).map { String($0.output.1) }
    }
}
