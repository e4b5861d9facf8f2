import Foundation
import VouchClient
import VouchDaemon
import VouchJSON
import VouchServer
import VouchTestSupport

/// Calls to a running `DaemonProcess` over HTTP, with a token.
struct DaemonAPI {
    let port: UInt16
    let token: String
    let client = HTTPClient(timeoutSeconds: 10)

    struct Answer {
        var status: Int
        var headers: [String: String]
        var text: String
        var json: JSONValue { (try? JSONParser.parse(Array(text.utf8))) ?? .null }
    }

    @discardableResult
    func call(_ method: String, _ path: String, json: String? = nil, token: String? = nil) throws -> Answer {
        var headers = [("Authorization", "Bearer \(token ?? self.token)")]
        if json != nil { headers.append(("Content-Type", "application/json")) }
        let response = try client.send(method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: json.map { Array($0.utf8) })
        return Answer(status: response.status, headers: response.headers, text: response.text)
    }

    /// Calls and insists on a 2xx answer, so a broken setup step fails the test where it happened.
    @discardableResult
    func require(_ method: String, _ path: String, json: String? = nil, token: String? = nil) throws -> JSONValue {
        let answer = try call(method, path, json: json, token: token)
        guard (200..<300).contains(answer.status) else { throw DaemonError("\(method) \(path) answered \(answer.status): \(answer.text)") }
        return answer.json
    }

    /// Every `field` of a paged list, following `next_cursor`.
    func collect(_ path: String, items: String, field: String) throws -> [String] {
        var found: [String] = []
        var cursor: String?
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let page = try require("GET", path + separator + "limit=500" + (cursor.map { "&cursor=\($0)" } ?? ""))
            found += page[items]?.arrayValue?.compactMap { $0[field]?.stringValue } ?? []
            cursor = page["next_cursor"]?.stringValue
        } while cursor != nil
        return found
    }
}

/// One run of the `vouchd` binary for a maintenance command (check-config, backup, restore).
struct VouchdRun {
    var status: Int32
    var output: String
    var errors: String

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: DaemonProcess.binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VOUCHD_") }.merging(environment) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        self.output = String(decoding: outputData, as: UTF8.self)
        self.errors = String(decoding: errorData, as: UTF8.self)
    }
}
