import Foundation

/// A new empty directory under the system's temporary directory, unique to one test, removed with everything in it
/// when the value goes away.
public final class TemporaryDirectory {
    public let path: String

    /// - Parameter prefix: begins the directory's name, so a directory left by a crashed run says which tests made it.
    public init(_ prefix: String = "vouch-tests") throws {
        path = NSTemporaryDirectory() + prefix + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
