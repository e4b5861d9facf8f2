import Foundation
// See PostgresTestDatabase: Swift Testing is there in test builds only.
#if canImport(Testing)
import Testing
#endif

/// A real SMTP server for one test: aiosmtpd, run by `Tests/Support/smtp_sink.py` on 127.0.0.1 and a port the system
/// picks, keeping every message it accepts with its envelope and what Python's own email parser reads in it.
///
/// `try SMTPSink.run { sink in … }` starts it and stops it once the body returns or throws. The Python comes from
/// `VOUCH_TEST_PYTHON` (scripts/test sets it to `.build/test-venv`, where `Tests/External/requirements.txt` installs
/// aiosmtpd). Without it the test is skipped, or fails when `VOUCH_REQUIRE_SMTP=1` or `CI` is set, where a skip
/// would hide that nothing ran.
public final class SMTPSink {
    public let port: Int
    private let directory: TemporaryDirectory
    private let process = ChildProcess()
    /// Closing it tells the sink to stop; it stops too if this process dies.
    private let input = Pipe()

    static let pythonVariable = "VOUCH_TEST_PYTHON"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/smtp_sink.py").path

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// - Parameters:
    ///   - refuseFirst: `rcpt:451` or `data:554`: the first RCPT, or the first message's end, gets that reply.
    ///   - login: `user:password`: the server offers AUTH and accepts this login only.
    public static func run<T>(refuseFirst: String? = nil, login: String? = nil, _ body: (SMTPSink) throws -> T) throws -> T {
        let sink = try SMTPSink(python: try python(), refuseFirst: refuseFirst, login: login)
        defer { sink.stop() }
        return try body(sink)
    }

    private init(python: String, refuseFirst: String?, login: String?) throws {
        directory = try TemporaryDirectory("vouch-smtp-sink")
        let log = directory.file("sink.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [SMTPSink.script, directory.path] + (refuseFirst.map { ["--refuse-first", $0] } ?? [])
            + (login.map { ["--login", $0] } ?? [])
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        var firstLine: [UInt8] = []
        while !firstLine.contains(0x0A) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            firstLine += data
        }
        guard let port = Int(String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.waitUntilExit()
            let errors = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "the SMTP sink did not start (\(python) \(SMTPSink.script)): \(errors)")
        }
        self.port = port
    }

    private func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The Python to run the sink with; skips (or fails) the running test when none is configured.
    static func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let python = environment[pythonVariable], !python.isEmpty { return python }
        let required = environment["VOUCH_REQUIRE_SMTP"] == "1" || !(environment["CI"] ?? "").isEmpty
        let reason = "needs aiosmtpd (set \(pythonVariable) to a Python that has it, as scripts/test does)"
        if required { throw Failure(description: "VOUCH_REQUIRE_SMTP=1 or CI is set but \(pythonVariable) is not: the test \(reason)") }
        #if canImport(Testing)
        print("Skipped: \(Test.current?.name ?? "test") \(reason)")
        try Test.cancel(Comment(rawValue: reason))
        #else
        throw Failure(description: reason)
        #endif
    }

    /// The messages accepted so far, in the order they came.
    public func received() throws -> [ReceivedMail] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try names.compactMap { Int($0.dropLast(".json".count)) }.sorted().map { number in
            var mail = try decoder.decode(ReceivedMail.self, from: Data(contentsOf: URL(fileURLWithPath: directory.file("\(number).json"))))
            mail.raw = Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("\(number).eml"))))
            return mail
        }
    }
}

/// One message an `SMTPSink` accepted: its envelope, and the message as Python's email parser read it.
public struct ReceivedMail: Decodable, Sendable {
    public struct Part: Decodable, Sendable {
        public var contentType: String
        public var charset: String?
        public var transferEncoding: String?
        /// Decoded to text.
        public var content: String
    }

    public var mailFrom: String
    public var rcptTos: [String]
    /// The user name the client logged in with, if it did.
    public var login: String?
    /// Every header as `[name, decoded value]`, in order.
    public var headers: [[String]]
    public var contentType: String
    public var parts: [Part]
    /// The names of what the parser found wrong (`InvalidHeaderDefect`…); empty for a well-formed message.
    public var defects: [String]
    /// In bytes, without the CRLF.
    public var longestLine: Int
    /// Line feeds not preceded by a carriage return.
    public var bareLineFeeds: Int
    /// The bytes as received.
    public var raw: [UInt8] = []

    enum CodingKeys: String, CodingKey {
        case mailFrom, rcptTos, login, headers, contentType, parts, defects, longestLine, bareLineFeeds
    }

    /// The decoded values of every header called `name` (case-insensitive).
    public func header(_ name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
    }
}
