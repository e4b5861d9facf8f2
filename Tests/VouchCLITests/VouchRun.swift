import Foundation
import VouchTestSupport

/// What one run of the built `vouch` binary printed, and how it exited.
struct VouchRun: Equatable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

    /// Runs `.build/debug/vouch` with `arguments` and only the environment given (never the caller's VOUCH_*).
    ///
    /// Output goes to files rather than pipes, so a large answer can never block the child.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> VouchRun {
        let directory = try TemporaryDirectory("vouch-run")
        let outputURL = directory.url.appendingPathComponent("stdout")
        let errorURL = directory.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }
        let process = BuiltProduct.vouchProcess(arguments, environment: environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        return VouchRun(status: process.terminationStatus,
                        stdout: try String(contentsOf: outputURL, encoding: .utf8),
                        stderr: try String(contentsOf: errorURL, encoding: .utf8))
    }
}
