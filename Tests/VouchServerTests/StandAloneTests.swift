import Foundation
import Testing

/// The repository carries its own design: nothing in it reads or names documents outside it.
struct StandAloneTests {
    @Test func noFilePointsOutsideTheRepository() throws {
        let root = OperationsTests.repository
        let outside = ["DESIGN.md", "STYLE.md", "C-INTEROP.md", "../shared", "shared/research", "shared/seeds"]
        var offenders: [String] = []
        for folder in ["Sources", "Tests", "scripts", "deploy", "systemd", "docs", "Schema", "openapi", "Plugins", ".ci"] {
            guard let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in files where !path.hasSuffix(".json") || folder == "openapi" {
                let file = root.appendingPathComponent(folder).appendingPathComponent(path)
                guard let text = try? String(contentsOf: file, encoding: .utf8), !path.hasSuffix("StandAloneTests.swift") else { continue }
                for name in outside where text.contains(name) { offenders.append("\(folder)/\(path) names \(name)") }
            }
        }
        for file in ["README.md", "RELIABILITY.md", "BENCHMARKS.md", "Package.swift"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for name in outside where text.contains(name) { offenders.append("\(file) names \(name)") }
        }
        #expect(offenders.isEmpty, "\(offenders)")
        // The design a newcomer needs is here instead.
        for doc in ["README.md", "architecture.md", "lifecycle.md", "contracts.md", "privacy.md", "decisions.md"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("docs").appendingPathComponent(doc).path), "docs/\(doc)")
        }
    }
}
