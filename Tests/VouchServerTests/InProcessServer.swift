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
import VouchWebhooks

/// A vouchd application running inside the test process (not a child process: that is `DaemonProcess`), over a fresh
/// database in its own temporary directory, served on port 0.
final class InProcessServer {
    private let temporaryDirectory: TemporaryDirectory
    var directory: String { temporaryDirectory.path }
    let store: RelationalStore
    let application: VouchApplication
    let server: HTTPServer
    let port: UInt16
    let adminToken: String
    let client = HTTPClient(timeoutSeconds: 10)

    /// Test settings: loopback receivers allowed, retries in fractions of a second, no soak, one passing tester.
    static func testSettings(criteria: CriteriaSettings = CriteriaSettings(minTestersPassed: 1, requiredAssistiveTech: [], minSoakSeconds: 0),
                             retryDelays: [Int] = [0, 1], timeoutMilliseconds: Int = 2_000) -> ApplicationSettings {
        ApplicationSettings(criteria: criteria,
                            delivery: .init(schedule: DeliverySchedule(retryDelays: retryDelays, jitterFraction: 0), timeoutMilliseconds: timeoutMilliseconds,
                                            allowPrivateNetworks: true, threadCount: 2, maxIdleMilliseconds: 100, leaseMilliseconds: 30_000),
                            maxTimerSleepMilliseconds: 200)
    }

    /// - Parameter http: the HTTP server's settings; its host and port are ignored (127.0.0.1, a free port).
    /// - Parameter hostResolver: resolves webhook hosts at registration; a test's own lookup stands in for DNS.
    init(maxBodyBytes: Int = 64 * 1024, settings: ApplicationSettings = InProcessServer.testSettings(),
         http: HTTPServer.Configuration = HTTPServer.Configuration(threadCount: 2),
         logger: Logger = Logger(level: .error, sink: { _ in }), hostResolver: HostResolver = HostResolver()) throws {
        temporaryDirectory = try TemporaryDirectory("vouch-server-tests")
        store = try RelationalStore(path: temporaryDirectory.file("vouch.sqlite3"))
        application = try VouchApplication(store: store, logger: logger, settings: settings, hostResolver: hostResolver)
        let tokenPath = try AdminBootstrap.run(application: application, stateDirectory: temporaryDirectory.path)
        adminToken = try String(contentsOfFile: tokenPath ?? "", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var configuration = http
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.maxBodyBytes = maxBodyBytes
        server = HTTPServer(configuration: configuration, handler: application.respond(to:), direct: application.respond(to:))
        application.attach(server)
        port = try server.start()
        application.startServices()
    }

    deinit {
        server.stop()
        application.stopServices()
    }

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var json: JSONValue { (try? JSONParser.parse(body)) ?? .null }
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The fields named in a problem document's `errors`.
        var errorFields: [String] { json["errors"]?.arrayValue?.compactMap { $0["field"]?.stringValue } ?? [] }
    }

    @discardableResult
    func call(_ method: String, _ path: String, token: String?? = .none, json: String? = nil, contentType: String = "application/json",
              headers extra: [(String, String)] = []) throws -> Answer {
        var headers = extra
        let bearer: String? = token ?? adminToken
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        if json != nil { headers.append(("Content-Type", contentType)) }
        let response = try client.send(method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: json.map { Array($0.utf8) })
        return Answer(status: response.status, headers: response.headers, body: response.body)
    }

    /// Makes a token with the given role and returns its secret.
    func token(role: String, name: String? = nil) throws -> String {
        let answer = try call("POST", "/v1/tokens", json: #"{"name":"\#(name ?? role)","role":"\#(role)"}"#)
        guard answer.status == 201, let secret = answer.json["token"]?.stringValue else {
            throw DaemonError("token creation failed: \(answer.status) \(answer.text)")
        }
        return secret
    }

    static let channelSelectorFix = #"""
        {"key":"tv-channel-selector-labels","title":"Label channel logos","ui_area":"TV channel selector","platforms":["ios"],
         "wcag":["1.1.1","4.1.2"],"expected_announcement":"NHK, button, selected"}
        """#

    func createChannelSelectorFix() throws {
        let answer = try call("POST", "/v1/fixes", json: InProcessServer.channelSelectorFix)
        guard answer.status == 201 else { throw DaemonError("fix creation failed: \(answer.status) \(answer.text)") }
    }

    func evaluate(_ key: String, targetingKey: String?, token: String? = nil) throws -> Answer {
        let context = targetingKey.map { #"{"context":{"targetingKey":"\#($0)"}}"# } ?? #"{"context":{}}"#
        return try call("POST", "/ofrep/v1/evaluate/flags/\(key)", token: .some(token ?? adminToken), json: context)
    }
}
