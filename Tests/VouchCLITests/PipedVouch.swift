import Foundation
import VouchTestSupport
import Glibc

/// `vouch` left running with pipes for its output, as a script runs a command that does not end by itself
/// (`vouch eval --watch`): the test reads its lines as they come and signals it.
///
/// Reads wait with a deadline, so a program that hangs fails the test instead of stopping it.
final class PipedVouch {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process: ChildProcess
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()
    /// Standard output and error as read so far.
    private(set) var output = ""
    private(set) var errorOutput = ""
    /// How many complete lines of standard output `nextLine` has returned.
    private var linesTaken = 0

    init(_ arguments: [String], environment: [String: String]) throws {
        process = BuiltProduct.vouchProcess(arguments, environment: environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        for pipe in [outputPipe, errorPipe] {
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The next complete line of standard output, waiting up to `seconds` for it.
    func nextLine(within seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if lines.count > linesTaken {
                linesTaken += 1
                return String(lines[lines.index(lines.startIndex, offsetBy: linesTaken - 1)])
            }
            let cameIn = readAvailable(until: deadline)
            guard cameIn || process.isRunning else {
                throw Failure(description: "vouch exited with \(process.terminationStatus) before another line; stdout:\n\(output)stderr:\n\(errorOutput)")
            }
            guard cameIn || Date() < deadline else {
                throw Failure(description: "no further line within \(seconds) s; stdout:\n\(output)stderr:\n\(errorOutput)")
            }
        }
    }

    /// Standard output's lines until one contains `text`, which is the last returned.
    func lines(through text: String, within seconds: Double = 10) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var lines: [String] = []
        repeat {
            lines.append(try nextLine(within: max(0, deadline.timeIntervalSinceNow)))
        } while !lines[lines.count - 1].contains(text)
        return lines
    }

    /// Waits until standard error holds `text`.
    func expectError(_ text: String, within seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !errorOutput.contains(text) {
            guard Date() < deadline else { throw Failure(description: "stderr never said \"\(text)\" within \(seconds) s; stderr:\n\(errorOutput)") }
            readAvailable(until: deadline)
        }
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the program to exit, reading what it still writes, and returns its status.
    func waitForExit(within seconds: Double = 10) throws -> Int32 {
        try BuiltProduct.waitForExit(process, within: seconds, reading: { readAvailable(until: $0) }, output: { "\(output)stderr:\n\(errorOutput)" })
        while readAvailable(until: Date()) {}
        return process.terminationStatus
    }

    /// Reads what either pipe has, waiting up to 50 ms (or the deadline) for something; true when something came.
    @discardableResult
    private func readAvailable(until deadline: Date) -> Bool {
        var descriptors = [outputPipe, errorPipe].map { pollfd(fd: $0.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0) }
        let wait = max(0, min(50, Int32(deadline.timeIntervalSinceNow * 1000)))
        guard poll(&descriptors, 2, wait) > 0 else { return false }
        var cameIn = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        for (index, descriptor) in descriptors.enumerated() where descriptor.revents & Int16(POLLIN) != 0 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            cameIn = true
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            if index == 0 { output += text } else { errorOutput += text }
        }
        return cameIn
    }
}
