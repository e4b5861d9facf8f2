import Foundation
import Synchronization

/// The built `vouchd` binary running as a child process on 127.0.0.1, port 0, for tests that talk to a real daemon,
/// signal it or kill it.
///
/// Without a state directory it makes a temporary one and removes it when the value goes away. `stop()` (or the value
/// going away, with SIGKILL) ends the process even when a test fails.
public final class DaemonProcess {
    /// `.build/debug/vouchd`, found from this file: the package root is three levels up
    /// (Tests/VouchTestSupport/DaemonProcess.swift).
    public static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/vouchd").path

    public let process = ChildProcess()
    public let stateDirectory: String
    /// The directory made for this daemon when the test named no state directory (the state is `state/` inside it);
    /// a test may keep its own files there. Removed with the daemon.
    public let temporaryDirectory: TemporaryDirectory?
    public private(set) var port: UInt16 = 0
    private let log = LogBuffer()
    /// Signalled by the reader thread when vouchd's standard error has ended.
    private let errorsEnded = DispatchSemaphore(value: 0)

    /// - Parameter stateDirectory: where vouchd keeps its state; a new temporary directory when nil.
    /// - Parameter environment: `VOUCHD_*` settings for this daemon, over the test process's own environment.
    /// - Parameter openFileLimit: when set, vouchd starts under this open file limit, soft and hard (`ulimit -n`).
    public init(stateDirectory: String? = nil, extraArguments: [String] = [], environment: [String: String] = [:], openFileLimit: Int? = nil) throws {
        if let stateDirectory {
            temporaryDirectory = nil
            self.stateDirectory = stateDirectory
        } else {
            let directory = try TemporaryDirectory("vouchd")
            temporaryDirectory = directory
            self.stateDirectory = directory.file("state")
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let arguments = ["--state-dir", self.stateDirectory, "--listen", "127.0.0.1:0"] + extraArguments
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", DaemonProcess.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: DaemonProcess.binary)
            process.arguments = arguments
        }
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // vouchd's standard error is read by a thread of its own with blocking reads, and only that thread lets go
        // of the read end, after the end of the stream. A Dispatch readability handler would register the
        // descriptor with libdispatch's epoll, and closing it before the asynchronous cancel is done, while a
        // child spawned at that moment by another test still holds a copy, left a stale registration that
        // crashed libdispatch's event loop (signal 11 in `_dispatch_event_loop_drain`; docs/architecture.md, "Tests").
        let reading = errors.fileHandleForReading
        let log = self.log
        let ended = errorsEnded
        let reader = Thread {
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                let chunk = String(decoding: data, as: UTF8.self)
                log.text.withLock { $0 += chunk }
            }
            try? reading.close()
            ended.signal()
        }
        reader.name = "vouchd stderr"
        reader.start()
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let found = DaemonProcess.port(in: log.text.withLock { $0 }) {
                port = found
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop(signal: SIGKILL)
        throw DaemonStartFailure(log: log.text.withLock { $0 })
    }

    public struct DaemonStartFailure: Error, CustomStringConvertible {
        public var log: String
        public var description: String { "vouchd did not start: \(log)" }

        public init(log: String) {
            self.log = log
        }
    }

    /// Where the daemon answers: `http://127.0.0.1:<port>`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// What vouchd wrote to standard error so far.
    public var logText: String { log.text.withLock { $0 } }

    public var adminToken: String {
        (try? String(contentsOfFile: stateDirectory + "/admin.token", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// The port of vouchd's `msg=listening … http.port=40123` line, once the whole line has arrived: it logs that
    /// line when it accepts connections.
    static func port(in log: String) -> UInt16? {
        guard let line = log.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.contains("msg=listening") }),
              let range = line.range(of: " http.port=") else { return nil }
        return UInt16(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// Sends a signal and waits for the process to end; returns its exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // The stream ends when vouchd and any child that inherited its write end are gone; a reader still
        // waiting after that keeps the read end open by itself and closes it when the end comes.
        _ = errorsEnded.wait(timeout: .now() + 5)
    }
}
