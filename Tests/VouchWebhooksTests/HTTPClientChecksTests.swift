import Foundation
import Testing
import VouchClient
import VouchTestSupport

/// The checks the webhook sender relies on in its HTTP client: the connected address, and every option libcurl refuses.
struct HTTPClientChecksTests {
    @Test func aConnectionToARefusedAddressSendsNothing() throws {
        let receiver = try WebhookReceiver(.status(200))
        defer { receiver.stop() }
        var asked: [String] = []
        let error = try #require(throws: HTTPClient.TransportError.self) {
            try HTTPClient(timeoutSeconds: 5).send(method: "POST", url: receiver.url, body: Array("{}".utf8),
                                                   allowsPeer: { asked.append($0); return false })
        }
        #expect(asked == ["127.0.0.1"])
        #expect(error.message == "connected to 127.0.0.1, an address the policy refuses; nothing was sent")
        #expect(error.isRefusedPeer)
        #expect(receiver.wait { $0.finishedConnections == 1 })
        #expect(receiver.requests.count == 0)
    }

    @Test func anAllowedAddressIsAnswered() throws {
        let receiver = try WebhookReceiver(.status(202), on: .ipv6)
        defer { receiver.stop() }
        let answer = try HTTPClient(timeoutSeconds: 5).send(method: "POST", url: receiver.url, body: Array("{}".utf8), allowsPeer: { $0 == "::1" })
        #expect(answer.status == 202)
    }

    /// libcurl refuses a URL over its 8,000,000-byte input limit at curl_easy_setopt; that must stop the request.
    @Test func anOptionLibcurlRefusesStopsTheRequest() throws {
        let url = "http://127.0.0.1:9/" + String(repeating: "a", count: 8_000_001)
        let error = try #require(throws: HTTPClient.TransportError.self) { try HTTPClient(timeoutSeconds: 1).send(method: "GET", url: url) }
        #expect(error.message.hasPrefix("libcurl refused CURLOPT_URL: "), "\(error.message)")
    }
}
