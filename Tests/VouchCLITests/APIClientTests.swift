import Testing
import VouchJSON
@testable import VouchCLI

/// The client in-process, over a transport the test controls: submissions carry an Idempotency-Key, and a
/// submission whose answer never came is sent again, the same bytes under the same key, at most twice.
@Suite struct APIClientTests {
    /// Records each request, and fails the first `failures` of them as a broken connection would.
    final class FlakyNetwork {
        var requests: [HTTPTransport.Request] = []
        var failures: Int

        init(failures: Int) { self.failures = failures }

        var transport: HTTPTransport {
            HTTPTransport { request throws(HTTPTransport.Failure) in
                self.requests.append(request)
                if self.failures > 0 {
                    self.failures -= 1
                    throw HTTPTransport.Failure(message: "Connection reset by peer", isConnectionFailure: true)
                }
                return HTTPTransport.Response(status: 201, headers: [:], body: Array(#"{"id":"fb_1"}"#.utf8))
            }
        }
    }

    func client(_ network: FlakyNetwork) -> APIClient {
        APIClient(server: "http://vouch.test", token: "vch_test", transport: network.transport, retryDelays: [0, 0])
    }

    @Test func retriesWithTheSameKeyAndBody() throws {
        let network = FlakyNetwork(failures: 2)
        let answer = try client(network).submit("/v1/fixes/k/feedback", body: .object(["verdict": .string("passed")]))
        #expect(answer["id"] == .string("fb_1"))
        try #require(network.requests.count == 3)
        let keys = network.requests.compactMap { $0.header("Idempotency-Key") }
        #expect(keys.count == 3 && Set(keys).count == 1)
        #expect(keys[0].count == 36)
        #expect(Set(network.requests.map { $0.body ?? [] }).count == 1)
        #expect(network.requests.allSatisfy { $0.method == "POST" && $0.url == "http://vouch.test/v1/fixes/k/feedback" })
    }

    @Test func eachSubmissionHasItsOwnKey() throws {
        let network = FlakyNetwork(failures: 0)
        let api = client(network)
        _ = try api.submit("/v1/fixes/k/feedback", body: .object([:]))
        _ = try api.submit("/v1/fixes/k/feedback", body: .object([:]))
        let keys = network.requests.compactMap { $0.header("Idempotency-Key") }
        #expect(keys.count == 2 && keys[0] != keys[1])
    }

    @Test func givesUpAfterTwoRetries() {
        let network = FlakyNetwork(failures: 5)
        #expect {
            try client(network).submit("/v1/fixes/k/feedback", body: .object([:]))
        } throws: { error in
            guard let failure = error as? CommandFailure else { return false }
            return failure.exitCode == .unavailable
                && failure.message == "Cannot reach the Vouch server at http://vouch.test: Connection reset by peer (tried 3 times)."
                && failure.details.first?.contains("same Idempotency-Key") == true
        }
        #expect(network.requests.count == 3)
    }

    /// Only submissions are retried; other requests fail at once and carry no key.
    @Test func otherRequestsAreSentOnce() {
        let network = FlakyNetwork(failures: 1)
        #expect(throws: CommandFailure.self) { try client(network).post("/v1/fixes/k/start") }
        #expect(network.requests.count == 1)
        #expect(network.requests[0].header("Idempotency-Key") == nil)
    }
}
