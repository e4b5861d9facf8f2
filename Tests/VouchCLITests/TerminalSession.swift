import Foundation
import VouchTestSupport
import Glibc

/// `vouch` run on a pseudo-terminal, the way a person at a terminal runs it: the pty's slave side is the
/// program's standard input, output and error; the test reads the master side and types into it.
///
/// Reads are non-blocking with a deadline, so a program that hangs fails the test instead of stopping it.
final class TerminalSession {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let master: Int32
    private let process: ChildProcess
    /// Everything the program wrote and the terminal echoed back, with the terminal's "\r\n" read as "\n".
    private(set) var transcript = ""
    /// How much of `transcript` earlier `expect` calls have matched.
    private var matched = 0
    private var isClosed = false

    init(_ arguments: [String], environment: [String: String]) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw Failure(description: "openpty failed: \(String(cString: strerror(errno)))") }
        // Tests run in parallel: other children spawned now must not inherit the pty, or the master would
        // never see the slave close. dup2 onto the child's 0, 1 and 2 clears the flag for this child only.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process = BuiltProduct.vouchProcess(arguments, environment: ["TERM": "dumb"].merging(environment) { $1 })
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        do {
            try process.run()
        } catch {
            close(master)
            throw error
        }
        try terminal.close()
    }

    deinit {
        if process.isRunning {
            // SIGKILL, not terminate(): the child inherits the test thread's signal mask, in which Dispatch blocks
            // SIGTERM, so a SIGTERM would wait forever and a failed expectation would hang the whole suite.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        close(master)
    }

    /// Waits until `text` appears after what earlier calls matched; returns everything up to and including it.
    @discardableResult
    func expect(_ text: String, within seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let unread = String(transcript.unicodeScalars.dropFirst(matched))
            if let range = unread.range(of: text) {
                let chunk = String(unread[..<range.upperBound])
                matched += chunk.unicodeScalars.count
                return chunk
            }
            if isClosed || Date() >= deadline {
                let why = isClosed ? "the program closed the terminal" : "nothing more came within \(seconds) s"
                throw Failure(description: "expected \"\(text)\" but \(why); unmatched output:\n\(unread)")
            }
            readAvailable(until: deadline)
        }
    }

    /// Types `line` and Enter.
    func type(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw Failure(description: "could not type \"\(line)\": \(String(cString: strerror(errno)))") }
    }

    /// Waits for the program to exit, reading what it still writes, and returns its status.
    func waitForExit(within seconds: Double = 10) throws -> Int32 {
        try BuiltProduct.waitForExit(process, within: seconds, reading: { readAvailable(until: $0) }, output: { transcript })
        // What it wrote last may still wait in the terminal; the master reports the end once it is read.
        let drained = Date().addingTimeInterval(1)
        while !isClosed && Date() < drained { readAvailable(until: drained) }
        return process.terminationStatus
    }

    /// The output after what `expect` matched.
    var rest: String { String(transcript.unicodeScalars.dropFirst(matched)) }

    /// Reads whatever the master has, waiting up to 50 ms (or the deadline) for something to arrive.
    private func readAvailable(until deadline: Date) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let wait = max(0, min(50, Int32(deadline.timeIntervalSinceNow * 1000)))
        guard poll(&descriptor, 1, wait) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 {
            transcript += String(decoding: buffer[..<count], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            // Linux answers EIO once every slave descriptor is closed: the program has exited.
            isClosed = true
        }
    }
}
