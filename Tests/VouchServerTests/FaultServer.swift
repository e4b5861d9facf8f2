import Foundation
import VouchClient
@testable import VouchDaemon
import VouchDomain
import VouchHTTP
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit
import VouchServices
import VouchStore
import VouchTestSupport

/// A vouchd application served on port 0 over a database in a directory the test chooses (a small tmpfs),
/// with a busy timeout the test chooses, so faults in the file system and in locking can be injected.
final class FaultServer {
    let directory: String
    private(set) var store: RelationalStore?
    private(set) var application: VouchApplication?
    private let server: HTTPServer
    let port: UInt16
    let adminToken: String
    let client = HTTPClient(timeoutSeconds: 10)
    let logLines = LogBuffer()

    var databasePath: String { directory + "/vouch.sqlite3" }

    /// - Parameter logLevel: every line the application logs at this level or above is kept in `logLines`.
    init(directory: String, busyTimeoutMilliseconds: Int = 5_000, logLevel: Logger.Level = .info,
         settings: ApplicationSettings = InProcessServer.testSettings()) throws {
        self.directory = directory
        let store = try RelationalStore(path: directory + "/vouch.sqlite3", busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let lines = logLines
        let application = try VouchApplication(store: store, logger: Logger(level: logLevel, sink: { line in lines.text.withLock { $0 += line + "\n" } }),
                                               settings: settings)
        let tokenPath = try AdminBootstrap.run(application: application, stateDirectory: directory)
        adminToken = try String(contentsOfFile: tokenPath ?? "", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 8), handler: application.respond(to:))
        port = try server.start()
        application.startServices()
        self.store = store
        self.application = application
    }

    /// Stops serving and lets go of the database, so its file system can be unmounted.
    func stop() {
        server.stop()
        application?.stopServices()
        application = nil
        store = nil
    }

    deinit {
        stop()
    }

    /// Where the server listens and the admin token: enough for other threads to call it, each with its own client.
    struct Address: Sendable {
        var port: UInt16
        /// Sent as `Authorization: Bearer`; nil sends none.
        var token: String?

        func call(_ method: String, _ path: String, json: String? = nil, headers extra: [(String, String)] = [],
                  using client: HTTPClient) throws -> InProcessServer.Answer {
            var headers = extra + (token.map { [("Authorization", "Bearer \($0)")] } ?? [])
            if json != nil { headers.append(("Content-Type", "application/json")) }
            let response = try client.send(method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: json.map { Array($0.utf8) })
            return InProcessServer.Answer(status: response.status, headers: response.headers, body: response.body)
        }
    }

    var address: Address { Address(port: port, token: adminToken) }

    @discardableResult
    func call(_ method: String, _ path: String, json: String? = nil, headers extra: [(String, String)] = []) throws -> InProcessServer.Answer {
        try address.call(method, path, json: json, headers: extra, using: client)
    }

    /// A started fix with `testers` enrolled testers; returns their ids.
    func startedFixWithTesters(_ key: String, testers: Int) throws -> [String] {
        let created = try call("POST", "/v1/fixes", json: #"{"key":"\#(key)","title":"T","ui_area":"TV channel selector","platforms":["ios"]}"#)
        guard created.status == 201 else { throw DaemonError("fix creation failed: \(created.status) \(created.text)") }
        try call("POST", "/v1/fixes/\(key)/start")
        var ids: [String] = []
        for index in 0..<testers {
            let body = #"{"name":"Tester \#(index)","assistive_tech":["voiceover:ios"],"targeting_keys":["user-\#(index)"],"consent":"v1"}"#
            ids.append(try call("POST", "/v1/testers", json: body).json["id"]?.stringValue ?? "")
        }
        try call("POST", "/v1/fixes/\(key)/enrollments", json: JSONWriter.string(.object(["testers": .strings(ids)])))
        return ids
    }

    /// Every feedback id stored for the fix, following `next_cursor`.
    func feedbackIDs(_ key: String) throws -> Set<String> {
        var ids: Set<String> = []
        var cursor: String?
        repeat {
            let page = try call("GET", "/v1/fixes/\(key)/feedback?limit=500" + (cursor.map { "&cursor=\($0)" } ?? "")).json
            ids.formUnion(page["feedback"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
            cursor = page["next_cursor"]?.stringValue
        } while cursor != nil
        return ids
    }

    /// `PRAGMA integrity_check` on a connection of its own.
    func integrityCheck() throws -> String {
        let connection = try SQLiteConnection(path: databasePath, readOnly: true)
        return try connection.query("PRAGMA integrity_check").first?.string(0) ?? ""
    }
}
