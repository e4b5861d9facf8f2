import Foundation
import VouchTestSupport

/// The executables `swift build` made, found from this file: the package root is three levels up
/// (Tests/VouchCLITests/BuiltProduct.swift).
enum BuiltProduct {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String {
        packageRoot.appendingPathComponent(".build/debug/\(name)").path
    }

    /// The built `vouch`, ready to run with `arguments` and only the environment given (never the caller's VOUCH_*);
    /// the caller connects its standard streams.
    static func vouchProcess(_ arguments: [String], environment: [String: String]) -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path("vouch"))
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"].merging(environment) { $1 }
        return process
    }

    struct ExitTimeout: Error, CustomStringConvertible {
        var description: String
    }

    /// Waits up to `seconds` for a child to exit, calling `read` meanwhile so its output keeps flowing; kills it at the
    /// deadline and throws with what `output` says it wrote.
    static func waitForExit(_ process: ChildProcess, within seconds: Double, reading read: (Date) -> Void, output: () -> String) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw ExitTimeout(description: "vouch did not exit within \(seconds) s; output:\n\(output())")
            }
            read(deadline)
        }
        process.waitUntilExit()
    }
}
