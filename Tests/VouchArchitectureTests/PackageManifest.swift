import Foundation

/// The targets `Package.swift` declares and the targets each depends on, read from its text.
///
/// Read as text rather than through `swift package dump-package` so the test needs no second toolchain run; the
/// manifest keeps one `.target(name: "…", dependencies: […])` per target, which is all this reads.
struct PackageManifest {
    struct Target: Equatable {
        enum Kind: String { case target, executableTarget, testTarget, systemLibrary, plugin }
        var kind: Kind
        var name: String
        var dependencies: [String]
        /// The folder holding its sources, relative to the repository.
        var path: String
    }

    var targets: [Target]

    init(text: String) {
        let declaration = /\.(target|executableTarget|testTarget|systemLibrary|plugin)\(name: "([^"]+)"/
        let matches = text.matches(of: declaration)
        targets = matches.enumerated().map { index, match in
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : text.endIndex
            let body = text[match.range.upperBound..<end]
            let kind = Target.Kind(rawValue: String(match.output.1))!
            let name = String(match.output.2)
            var dependencies: [String] = []
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/) {
                dependencies = list.output.1.matches(of: /"([^"]+)"/).map { String($0.output.1) }
            }
            let folder = kind == .testTarget ? "Tests" : (kind == .plugin ? "Plugins" : "Sources")
            let path = body.firstMatch(of: /path: "([^"]+)"/).map { String($0.output.1) } ?? "\(folder)/\(name)"
            return Target(kind: kind, name: name, dependencies: dependencies, path: path)
        }
    }

    subscript(name: String) -> Target? { targets.first { $0.name == name } }

    /// The repository this test file sits in.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func load() throws -> PackageManifest {
        PackageManifest(text: try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8))
    }
}
