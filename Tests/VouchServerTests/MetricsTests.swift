import Foundation
import Testing
import VouchHTTP
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit
import VouchServices
import VouchStore
import VouchTestSupport

/// `/metrics`, `/readyz`, request ids and the limit on unknown tokens, against an application served in-process.
@Suite struct MetricsTests {
    /// The value of one sample line, such as `vouch_fixes{state="testing"}`; 0 when absent.
    func sample(_ text: String, _ series: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1)) ?? -1
        }
        return 0
    }

    @Test func countersAndGaugesMoveWithRequests() throws {
        let server = try InProcessServer()
        let before = try server.call("GET", "/metrics", token: .some(nil)).text
        #expect(sample(before, #"vouch_fixes{state="testing"}"#) == 0)
        #expect(before.contains("# TYPE vouch_http_request_duration_seconds histogram"))
        #expect(sample(before, "process_resident_memory_bytes") > 1_000_000)
        #expect(sample(before, "process_start_time_seconds") > 1_700_000_000)

        try PromotionTests().fixWithPassingTesters(server, testers: 2)
        for user in ["user-1", "nobody"] { _ = try server.evaluate("tv-channel-selector-labels", targetingKey: user) }
        _ = try server.call("GET", "/v1/fixes/no-such-fix")
        _ = try server.call("GET", "/v1/no-such-route")
        let refusedStream = try server.call("GET", "/ofrep/v1/event-stream?credential=made-up", token: .some(nil))
        let after = try server.call("GET", "/metrics", token: .some(nil)).text

        #expect(sample(after, #"vouch_fixes{state="testing"}"#) == 1)
        #expect(sample(after, #"vouch_feedback_records{verdict="passed"}"#) == 2)
        #expect(sample(after, #"vouch_ofrep_evaluations_total{reason="TARGETING_MATCH"}"#) == 1)
        #expect(sample(after, #"vouch_ofrep_evaluations_total{reason="DEFAULT"}"#) == 1)
        #expect(sample(after, #"vouch_http_requests_total{method="POST",route="/v1/fixes/{key}/feedback",code="201"}"#) == 2)
        #expect(sample(after, #"vouch_http_requests_total{method="GET",route="/v1/fixes/{key}",code="404"}"#) == 1)
        // Evaluations skip the router (OFREPController.directRoute) but are counted under their route all the same.
        #expect(sample(after, #"vouch_http_requests_total{method="POST",route="/ofrep/v1/evaluate/flags/{key}",code="200"}"#) == 2)
        #expect(sample(after, #"vouch_http_requests_total{method="",route="unmatched",code="404"}"#) == 1)
        // The event stream is answered before routing too, and is counted as a route of its own, not as unmatched.
        #expect(refusedStream.status >= 400)
        #expect(sample(after, #"vouch_http_requests_total{method="GET",route="/ofrep/v1/event-stream",code="\#(refusedStream.status)"}"#) == 1)
        #expect(sample(after, #"vouch_http_request_duration_seconds_count{method="POST",route="/v1/fixes/{key}/feedback"}"#) == 2)
        #expect(sample(after, #"vouch_http_request_duration_seconds_bucket{method="POST",route="/v1/fixes/{key}/feedback",le="+Inf"}"#) == 2)
        #expect(sample(after, "vouch_webhook_outbox_depth") == 0)
        // Buckets are cumulative.
        let buckets = after.split(separator: "\n").filter { $0.hasPrefix(#"vouch_http_request_duration_seconds_bucket{method="POST",route="/v1/fixes/{key}/feedback""#) }
            .compactMap { Double($0.split(separator: " ").last ?? "") }
        #expect(buckets == buckets.sorted())
    }

    /// Every route the API and the console register is counted under its own name: one beyond the metrics' room would
    /// be counted as unmatched.
    @Test func everyRouteFitsInTheMetrics() throws {
        let server = try InProcessServer()
        #expect(server.application.countedRouteCount > 100)
        #expect(server.application.countedRouteCount <= Metrics.routeCapacity)
    }

    /// A connection cut at the header deadline shows in `/metrics`, as do the open connections.
    @Test func connectionsCutByTheDeadlinesAreCounted() throws {
        let server = try InProcessServer(http: HTTPServer.Configuration(threadCount: 2, deadlines: ConnectionDeadlines(headerMilliseconds: 300)))
        let series = "vouch_http_connections_cut_total{reason=\"header_deadline\"}"
        #expect(sample(try server.call("GET", "/metrics", token: .some(nil)).text, series) == 0)
        let slow = try RawConnection(port: server.port)
        try slow.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
        #expect(slow.isClosedByServer(within: 5))
        let after = try server.call("GET", "/metrics", token: .some(nil)).text
        // At least the slow one; the first scrape's kept-alive connection may have been cut idle too.
        #expect(sample(after, series) >= 1)
        #expect(sample(after, "vouch_http_connections_cut_total{reason=\"shed\"}") == 0)
        #expect(sample(after, "vouch_http_open_connections") >= 1, "the scraping connection is open")
    }

    @Test func readinessFollowsStartAndShutdown() throws {
        let temporary = try TemporaryDirectory("vouch-readiness")
        let directory = temporary.path
        let application = try VouchApplication(store: try RelationalStore(path: directory + "/vouch.sqlite3"), logger: Logger(level: .error, sink: { _ in }))
        func readyz() -> HTTPResponse { application.response(to: HTTPRequest(method: "GET", path: "/readyz")) }
        #expect(readyz().status == 503)
        #expect(readyz().header("Retry-After") == "1")
        application.startServices()
        #expect(readyz().status == 200)
        application.readiness.markStopping()
        #expect(readyz().status == 503)
        #expect(String(decoding: readyz().body, as: UTF8.self).contains("shutting down"))
        application.startServices()
        #expect(readyz().status == 503, "never ready again once stopping")
        application.stopServices()
    }

    @Test func everyAnswerCarriesARequestIDAndSaneOnesAreKept() throws {
        let server = try InProcessServer()
        let generated = try server.call("GET", "/healthz", token: .some(nil)).headers["x-request-id"] ?? ""
        let again = try server.call("GET", "/healthz", token: .some(nil)).headers["x-request-id"] ?? ""
        #expect(!generated.isEmpty && generated != again)
        let kept = try server.call("GET", "/healthz", token: .some(nil), headers: [("X-Request-Id", "lb-7f3a.2")])
        #expect(kept.headers["x-request-id"] == "lb-7f3a.2")
        // Anything that could forge a log field is replaced.
        let replaced = try server.call("GET", "/healthz", token: .some(nil), headers: [("X-Request-Id", "a b=c")])
        #expect(replaced.headers["x-request-id"] != "a b=c")
    }

    @Test func repeatedUnknownTokensFromOneAddressAre429UntilTheWindowPasses() throws {
        var settings = InProcessServer.testSettings()
        settings.authFailures = .init(maxFailures: 3, windowSeconds: 1)
        let server = try InProcessServer(settings: settings)
        func get(_ token: String, from source: String = "127.0.0.1") throws -> (status: Int, headers: [String: String]) {
            let connection = try RawConnection(port: server.port, sourceAddress: source)
            try connection.send("GET /v1/fixes HTTP/1.1\r\nHost: vouch\r\nAuthorization: Bearer \(token)\r\n\r\n")
            let answer = try #require(try connection.readResponse())
            return (answer.status, answer.headers)
        }
        for _ in 0..<3 { #expect(try get("vch_guess").status == 401) }
        let limited = try get("vch_guess")
        #expect(limited.status == 429)
        #expect(limited.headers["retry-after"] == "1")
        // While blocked, even the right token is refused from that address, or a lucky guess would show.
        #expect(try get(server.adminToken).status == 429)
        // OFREP's 429 has no body.
        let ofrep = try RawConnection(port: server.port)
        try ofrep.send("POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: vouch\r\nAuthorization: Bearer \(server.adminToken)\r\nContent-Length: 0\r\n\r\n")
        let ofrepAnswer = try #require(try ofrep.readResponse())
        #expect(ofrepAnswer.status == 429)
        #expect(ofrepAnswer.body.isEmpty)
        #expect(ofrepAnswer.headers["retry-after"] != nil)
        // Other addresses are not affected; requests without a token neither.
        #expect(try get(server.adminToken, from: "127.0.0.2").status == 200)
        #expect(try server.call("GET", "/healthz", token: .some(nil)).status == 200)
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try get(server.adminToken).status == 200)
    }

    @Test func aRevokedTokenStillInUseIsNotCountedAsAGuess() throws {
        var settings = InProcessServer.testSettings()
        settings.authFailures = .init(maxFailures: 3, windowSeconds: 60)
        let server = try InProcessServer(settings: settings)
        let created = try server.call("POST", "/v1/tokens", json: #"{"name":"old-app","role":"sdk"}"#).json
        let secret = try #require(created["token"]?.stringValue)
        let id = try #require(created["id"]?.stringValue)
        #expect(try server.call("DELETE", "/v1/tokens/\(id)").status == 200)
        for _ in 0..<6 { #expect(try server.evaluate("any-flag", targetingKey: "user-1", token: secret).status == 401) }
        #expect(try server.call("GET", "/v1/fixes").status == 200, "the address is not blocked by a revoked token")
        // A directory loaded from the store at start knows the revoked token too.
        let directory = TokenDirectory()
        directory.load(try server.store.activeTokens(), revokedHashes: try server.store.revokedTokenHashes())
        #expect(directory.isRevoked(secret: secret))
        #expect(!directory.isRevoked(secret: "vch_never-issued"))
        #expect(!directory.isRevoked(secret: server.adminToken))
    }

    @Test func limiterWindowsAndCapacity() {
        let clock = ManualClock()
        let limiter = AuthFailureLimiter(settings: .init(maxFailures: 2, windowSeconds: 10), now: { clock.now })
        let address = ClientAddress(ipv4: 192, 0, 2, 1)
        #expect(limiter.retryAfter(for: address) == nil)
        #expect(!limiter.recordFailure(from: address))
        clock.advance(11)
        // The first failure's window has passed: counting starts again.
        #expect(!limiter.recordFailure(from: address))
        #expect(limiter.recordFailure(from: address))
        #expect(limiter.retryAfter(for: address) == 10)
        clock.advance(4)
        #expect(limiter.retryAfter(for: address) == 6)
        clock.advance(6)
        #expect(limiter.retryAfter(for: address) == nil)
        #expect(ClientAddress(ipv4: 192, 0, 2, 1).description == "192.0.2.1")
    }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double = 1_000

    var now: Double { lock.withLock { seconds } }

    func advance(_ by: Double) { lock.withLock { seconds += by } }
}
