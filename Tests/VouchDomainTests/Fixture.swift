import Foundation

/// The tab-separated tables in `Fixtures/`, read from the test bundle.
enum Fixture {
    struct MissingFile: Error, CustomStringConvertible {
        var name: String
        var description: String { "fixture Fixtures/\(name) is not in the test bundle" }
    }

    /// The rows of a TSV file after its header, skipping `#` comments and blank lines.
    static func rows(_ name: String) throws -> [[String]] {
        let url = URL(fileURLWithPath: name, relativeTo: Bundle.module.resourceURL?.appendingPathComponent("Fixtures"))
        guard FileManager.default.fileExists(atPath: url.path) else { throw MissingFile(name: name) }
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
