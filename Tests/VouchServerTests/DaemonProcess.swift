import Foundation
import Synchronization

/// The built `vouchd` binary running as a child process on port 0, for tests that signal or kill it.
final class DaemonProcess {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/vouchd").path

    let process = Process()
    let stateDirectory: String
    private(set) var port: UInt16 = 0
    private let log = LogBuffer()
    /// vouchd's standard error; its reading handler is taken off before the pipe goes, since libdispatch crashes when
    /// a descriptor it still watches is closed under it.
    private let errors = Pipe()

    /// - Parameter openFileLimit: when set, vouchd starts under this open file limit, soft and hard (`ulimit -n`).
    init(stateDirectory: String, extraArguments: [String] = [], environment: [String: String] = [:], openFileLimit: Int? = nil) throws {
        self.stateDirectory = stateDirectory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let arguments = ["--state-dir", stateDirectory, "--listen", "127.0.0.1:0"] + extraArguments
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", DaemonProcess.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: DaemonProcess.binary)
            process.arguments = arguments
        }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let log = self.log
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            // End of the stream: vouchd exited. Stop watching now rather than being called again and again.
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            let chunk = String(decoding: data, as: UTF8.self)
            log.text.withLock { $0 += chunk }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let found = DaemonProcess.port(in: log.text.withLock { $0 }) {
                port = found
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.terminate()
        throw DaemonStartFailure(log: log.text.withLock { $0 })
    }

    struct DaemonStartFailure: Error, CustomStringConvertible {
        var log: String
        var description: String { "vouchd did not start: \(log)" }
    }

    var logText: String { log.text.withLock { $0 } }

    var adminToken: String {
        (try? String(contentsOfFile: stateDirectory + "/admin.token", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    static func port(in log: String) -> UInt16? {
        guard let range = log.range(of: "http.port=") else { return nil }
        return UInt16(log[range.upperBound...].prefix { $0.isNumber })
    }

    /// Sends a signal and waits for the process to end; returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        errors.fileHandleForReading.readabilityHandler = nil
    }
}

/// What the daemon wrote to stderr, appended from the pipe's reader thread.
final class LogBuffer: Sendable {
    let text = Mutex<String>("")
}
