import Foundation
import Testing
@testable import VouchHTTP
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit
import VouchTestSupport

/// The HTTP server's direct OFREP answer (`VouchApplication.respond(to:)`) answers a single evaluation exactly as
/// `response(to:)` does, and leaves every other request to it.
@Suite struct DirectAnswerTests {
    static let flag = "tv-channel-selector-labels"
    static let path = "/ofrep/v1/evaluate/flags/" + flag

    /// A request as the HTTP server holds it before the direct handler runs.
    struct Parts {
        var method = "POST"
        var path = DirectAnswerTests.path
        var headers: [(String, String)]
        var body = #"{"context":{"targetingKey":"user-1"}}"#

        var httpHeaders: HTTPHeaders {
            var headers = HTTPHeaders()
            for (name, value) in self.headers { headers[name.lowercased()] = value }
            return headers
        }
    }

    static func direct(_ application: VouchApplication, _ parts: Parts) -> HTTPResponse? {
        let names = RequestHeaderScan.Names(HTTPRequest.collectedHeaders)
        let state = RequestState(slot: -1, names: names)
        state.body = Array(parts.body.utf8)
        var scan = RequestHeaderScan()
        return HeaderLines.read(parts.headers, each: { scan.add(name: $0, value: $1, names: names, into: state.received) }) {
            Array(parts.method.utf8).withUnsafeBytes { method in
                Array(parts.path.utf8).withUnsafeBytes { path in
                    state.body.withUnsafeBytes { body in
                        application.respond(to: DirectRequest(method: method, path: path, requestID: "direct-test", headers: state.received, body: body,
                                                                 connection: nil))
                    }
                }
            }
        }
    }

    static func general(_ application: VouchApplication, _ parts: Parts) -> HTTPResponse {
        var request = HTTPRequest(method: parts.method, path: parts.path, headers: parts.httpHeaders, body: Array(parts.body.utf8))
        request.requestID = "direct-test"
        return application.response(to: request)
    }

    /// Status, every header in order, and the body, as text to compare.
    static func described(_ response: HTTPResponse) -> [String] {
        ["\(response.status)"] + response.headers.map { "\($0.name): \($0.value)" } + [String(decoding: response.body, as: UTF8.self)]
    }

    /// A fix in testing that targets user-1, and an sdk token.
    static func server(cors: CORSPolicy = CORSPolicy()) throws -> (InProcessServer, String) {
        var settings = InProcessServer.testSettings()
        settings.cors = cors
        let server = try InProcessServer(settings: settings)
        try server.createChannelSelectorFix()
        #expect(try server.call("POST", "/v1/fixes/\(flag)/start").status == 200)
        #expect(try server.call("POST", "/v1/fixes/\(flag)/targets", json: #"{"add":["user-1"]}"#).status == 200)
        return (server, try server.token(role: "sdk"))
    }

    @Test(arguments: [CORSPolicy(), CORSPolicy(origins: .listed(["https://app.example"]))])
    func answersASingleEvaluationAsTheUsualPathDoes(cors: CORSPolicy) throws {
        let (server, sdk) = try DirectAnswerTests.server(cors: cors)
        let bearer = ("Authorization", "Bearer \(sdk)")
        let json = ("Content-Type", "application/json")
        let answered: [Parts] = [
            Parts(headers: [bearer, json]),
            Parts(headers: [bearer, json], body: #"{"context":{"targetingKey":"someone-else"}}"#),
            Parts(path: "/ofrep/v1/evaluate/flags/no-such-flag", headers: [bearer, json]),
            Parts(headers: [("X-API-Key", sdk), ("Content-Type", "application/json; charset=utf-8")]),
            Parts(headers: [("Authorization", "bearer  \(sdk) "), json]),
            Parts(headers: [bearer, json, ("Origin", "https://app.example")]),
            Parts(headers: [bearer, json, ("Origin", "https://elsewhere.example")]),
            Parts(headers: [bearer]),
        ]
        for parts in answered {
            let direct = try #require(DirectAnswerTests.direct(server.application, parts), "answered directly: \(parts.headers) \(parts.body)")
            #expect(DirectAnswerTests.described(direct) == DirectAnswerTests.described(DirectAnswerTests.general(server.application, parts)))
        }
        // Every answer above was counted twice, once per path, under the route of single evaluations.
        let metrics = try server.call("GET", "/metrics", token: .some(nil)).text
        let sample = MetricsTests().sample
        #expect(sample(metrics, #"vouch_http_requests_total{method="POST",route="/ofrep/v1/evaluate/flags/{key}",code="200"}"#) == 14)
        #expect(sample(metrics, #"vouch_http_requests_total{method="POST",route="/ofrep/v1/evaluate/flags/{key}",code="404"}"#) == 2)
        #expect(sample(metrics, #"vouch_http_request_duration_seconds_count{method="POST",route="/ofrep/v1/evaluate/flags/{key}"}"#) == 16)
        #expect(sample(metrics, #"vouch_ofrep_evaluations_total{reason="TARGETING_MATCH"}"#) == 12)
    }

    @Test func leavesEveryOtherRequestToTheUsualPath() throws {
        let (server, sdk) = try DirectAnswerTests.server()
        let bearer = ("Authorization", "Bearer \(sdk)")
        let json = ("Content-Type", "application/json")
        let left: [(Parts, Int)] = [
            (Parts(headers: [json]), 401),
            (Parts(headers: [("Authorization", "Bearer vch_not_a_token_at_all_000000000000000"), json]), 401),
            (Parts(headers: [("Authorization", "Basic \(sdk)"), json]), 401),
            (Parts(method: "GET", headers: [bearer, json]), 405),
            (Parts(path: "/ofrep/v1/evaluate/flags", headers: [bearer, json]), 200),
            // The router's answers to a trailing `/`, which the direct answer does not try to match.
            (Parts(path: DirectAnswerTests.path + "/", headers: [bearer, json]), 200),
            (Parts(path: "/ofrep/v1/evaluate/flags/", headers: [bearer, json]), 200),
            (Parts(headers: [bearer, ("Content-Type", "text/plain")]), 400),
            (Parts(headers: [bearer, json], body: ""), 400),
            (Parts(headers: [bearer, json], body: #"{"context":{"targetingKey":7}}"#), 400),
            (Parts(headers: [bearer, json], body: #"{"context":{"targetingKey":"user\u002d1"}}"#), 200),
            (Parts(headers: [bearer, json], body: "not json"), 400),
        ]
        for (parts, status) in left {
            #expect(DirectAnswerTests.direct(server.application, parts) == nil, "left to the usual path: \(parts.method) \(parts.path) \(parts.headers) \(parts.body)")
            #expect(DirectAnswerTests.general(server.application, parts).status == status, "\(parts.method) \(parts.path) \(parts.body)")
        }
    }

    /// An address blocked for guessing tokens gets 429 even with a good token: the direct answer leaves it to
    /// `response(to:)`, which says so.
    @Test func leavesABlockedAddressToTheUsualPath() throws {
        let (server, sdk) = try DirectAnswerTests.server()
        let parts = Parts(headers: [("Authorization", "Bearer \(sdk)"), ("Content-Type", "application/json")])
        #expect(DirectAnswerTests.direct(server.application, parts)?.status == 200)
        for _ in 0..<server.application.authFailures.settings.maxFailures { server.application.authFailures.recordFailure(from: .unknown) }
        #expect(DirectAnswerTests.direct(server.application, parts) == nil)
        #expect(DirectAnswerTests.general(server.application, parts).status == 429)
    }
}
