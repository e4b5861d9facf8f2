import Foundation

/// A unique directory per test, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "vouch-store-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
