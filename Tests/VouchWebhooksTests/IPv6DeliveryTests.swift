import Foundation
import Testing
import VouchDomain
import VouchTestSupport
@testable import VouchWebhooks

/// Receivers reached over IPv6: by an address literal (no pin: curl connects to it directly) and by a name that
/// resolves to an IPv6 address (pinned as `name:port:[address]`).
@Suite(.serialized) struct IPv6DeliveryTests {
    @Test func aSignedDeliveryReachesAReceiverOnIPv6Loopback() throws {
        let receiver = try WebhookReceiver(.status(204), on: .ipv6)
        defer { receiver.stop() }
        #expect(receiver.url.hasPrefix("http://[::1]:"))
        let harness = try DeliveryHarness(url: receiver.url, timeoutMilliseconds: 2_000)
        let delivery = try #require(harness.waitForAttempts(1))
        #expect(delivery.status == .succeeded, "last error: \(delivery.lastError ?? "none")")
        #expect(delivery.lastStatusCode == 204)
        let secret = try #require(try harness.store.endpoint(harness.endpointID)?.secret)
        let (headers, body) = receiver.lastMessage
        #expect(headers["host"] == "[::1]:\(receiver.port)")
        #expect(headers["webhook-id"] == harness.eventID)
        let timestamp = try #require(headers["webhook-timestamp"].flatMap { Int($0) })
        let signature = WebhookSigner.signature(secret: secret, id: harness.eventID, timestamp: timestamp, body: body)
        #expect(signature != nil && headers["webhook-signature"] == signature, "the delivery is signed with the endpoint's secret")
        #expect(String(decoding: body, as: UTF8.self).contains(#""type":"fix.created""#))
    }

    /// `receiver.test` exists in no DNS: the request can only arrive through the pinned address.
    @Test func aNameResolvingToIPv6LoopbackIsPinnedToIt() throws {
        let receiver = try WebhookReceiver(.status(200), on: .ipv6)
        defer { receiver.stop() }
        let resolver = HostResolver { name in name == "receiver.test" ? .addresses(["::1"]) : .notFound }
        let url = "http://receiver.test:\(receiver.port)/hooks/vouch"
        let policy = AddressPolicy(allowPrivateNetworks: true, resolver: resolver, timeout: .seconds(2))
        #expect(try policy.resolve(url).pin == "receiver.test:\(receiver.port):[::1]")
        let sender = WebhookSender(timeoutMilliseconds: 2_000, allowPrivateNetworks: true, resolver: resolver)
        let outcome = sender.send(ReceiverFaultTests.job(url: url), eventID: "msg_pinned", now: Date())
        #expect(outcome.result == .answered(status: 200, retryAfterSeconds: nil), "\(outcome.error ?? "")")
        #expect(receiver.requests.count == 1)
        #expect(receiver.lastMessage.headers["host"] == "receiver.test:\(receiver.port)")
    }
}
