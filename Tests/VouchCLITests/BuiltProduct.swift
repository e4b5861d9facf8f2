import Foundation

/// The executables `swift build` made, found from this file: the package root is three levels up
/// (Tests/VouchCLITests/BuiltProduct.swift).
enum BuiltProduct {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String {
        packageRoot.appendingPathComponent(".build/debug/\(name)").path
    }

    /// A new empty directory under the system's temporary directory, unique to one test.
    static func makeTemporaryDirectory(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
