import Foundation
import Testing
import VouchDomain
@testable import VouchStore
import VouchTestSupport
@testable import VouchWebhooks

/// Receivers that misbehave: silent, redirecting, or answering without end. Each attempt is bounded in time and
/// memory, recorded, and decided by the status alone; no redirect is ever followed (SSRF).
@Suite(.serialized) struct ReceiverFaultTests {
    static func job(url: String) -> DeliveryJob {
        let now = Date()
        let delivery = WebhookDelivery(id: "dlv_fault", eventID: "msg_fault", eventType: .fixCreated, endpointID: "we_fault", status: .pending,
                                       required: true, attempts: 0, nextAttemptAt: now, lastStatusCode: nil, lastError: nil, createdAt: now, updatedAt: now)
        return DeliveryJob(delivery: delivery, url: url, secret: WebhookSigner.makeSecret(), body: Array(#"{"type":"fix.created","data":{}}"#.utf8))
    }

    @Test func aReceiverThatNeverAnswersTimesOutAndTheAttemptIsRecordedForARetry() throws {
        let receiver = try WebhookReceiver(.silent)
        defer { receiver.stop() }
        let harness = try DeliveryHarness(url: receiver.url, timeoutMilliseconds: 400, retryDelays: [60])
        let delivery = try #require(harness.waitForAttempts(1))
        #expect(delivery.status == .pending, "a timeout is a failed attempt, retried later")
        #expect(delivery.attempts == 1)
        #expect(delivery.lastStatusCode == nil)
        #expect(delivery.lastError == "timed out")
        let retryIn = (delivery.nextAttemptAt ?? .distantPast).timeIntervalSinceNow
        #expect(retryIn > 50 && retryIn <= 60, "the retry follows the schedule (60 s), got \(retryIn)")
        let attempt = try #require(try harness.attempts().first)
        #expect((380...1_500).contains(attempt.durationMilliseconds), "the attempt must end at the 400 ms timeout, took \(attempt.durationMilliseconds) ms")
        #expect(receiver.requests.count == 1)
        #expect(receiver.wait { $0.finishedConnections == 1 }, "the sender hangs up at the timeout")
    }

    /// The target is on loopback (a private address): following the redirect would be a server-side request forgery.
    @Test(arguments: [301, 302, 303, 307, 308]) func aRedirectIsNeverFollowedAndCountsAsAFailedAttempt(status: Int) throws {
        let target = try WebhookReceiver(.status(200))
        defer { target.stop() }
        let redirecting = try WebhookReceiver(.redirect(status: status, location: target.url))
        defer { redirecting.stop() }
        let harness = try DeliveryHarness(url: redirecting.url, timeoutMilliseconds: 2_000, retryDelays: [60])
        let delivery = try #require(harness.waitForAttempts(1))
        #expect(delivery.status == .pending)
        #expect(delivery.lastStatusCode == status, "the redirect's status is recorded")
        #expect(delivery.lastError == "HTTP \(status)")
        #expect(try harness.attempts().map(\.statusCode) == [status])
        Thread.sleep(forTimeInterval: 0.2)
        #expect(target.requests.count == 0, "the redirect's target must never be called")
        #expect(redirecting.requests.count == 1)
    }

    @Test func aRedirectToTheCloudMetadataAddressIsNotFollowed() throws {
        let redirecting = try WebhookReceiver(.redirect(status: 302, location: "http://169.254.169.254/latest/meta-data/iam/security-credentials/"))
        defer { redirecting.stop() }
        let sender = WebhookSender(timeoutMilliseconds: 2_000, allowPrivateNetworks: true, resolver: HostResolver())
        let outcome = sender.send(Self.job(url: redirecting.url), eventID: "msg_fault", now: Date())
        #expect(outcome.result == .answered(status: 302, retryAfterSeconds: nil))
        #expect(outcome.durationMilliseconds < 1_000, "nothing was fetched from the metadata address")
        #expect(DeliverySchedule(retryDelays: [5], jitterFraction: 0).decide(after: outcome.result, attempt: 1, now: Date(), random: 0.5)
                    != .succeeded)
    }

    /// 50 MB behind a 2xx or a 5xx: the sender reads at most its cap, hangs up, and the status decides.
    @Test(arguments: [(200, true), (500, false)]) func aHugeBodyIsCutAtTheCapAndTheStatusDecides(status: Int, succeeds: Bool) throws {
        let total = 50 * 1024 * 1024
        let receiver = try WebhookReceiver(.hugeBody(status: status, bytes: total))
        defer { receiver.stop() }
        let sender = WebhookSender(timeoutMilliseconds: 10_000, allowPrivateNetworks: true, resolver: HostResolver())
        let outcome = sender.send(Self.job(url: receiver.url), eventID: "msg_fault", now: Date())
        #expect(outcome.result == .answered(status: status, retryAfterSeconds: nil))
        #expect(outcome.statusCode == status)
        #expect(outcome.bodyBytesRead <= 2 * WebhookSender.maxResponseBodyBytes, "read \(outcome.bodyBytesRead) bytes of the body")
        #expect(outcome.durationMilliseconds < 3_000)
        #expect(receiver.wait { $0.finishedConnections == 1 }, "the sender hangs up instead of reading on")
        #expect(receiver.bytesSent < total / 2, "the receiver got \(receiver.bytesSent) of \(total) bytes out before the sender hung up")
        let decision = DeliverySchedule(retryDelays: [5], jitterFraction: 0).decide(after: outcome.result, attempt: 1, now: Date(), random: 0.5)
        #expect((decision == .succeeded) == succeeds)
    }

    @Test func anEndlessChunkedBodyIsCutWithoutWaitingForTheTimeout() throws {
        let receiver = try WebhookReceiver(.endlessChunks)
        defer { receiver.stop() }
        let harness = try DeliveryHarness(url: receiver.url, timeoutMilliseconds: 10_000)
        let delivery = try #require(harness.waitForAttempts(1))
        #expect(delivery.status == .succeeded, "a 200 with a body that never ends is still a 200")
        #expect(delivery.lastStatusCode == 200)
        let attempt = try #require(try harness.attempts().first)
        #expect(attempt.durationMilliseconds < 3_000, "the cap, not the 10 s timeout, ended the attempt (\(attempt.durationMilliseconds) ms)")
        #expect(receiver.wait { $0.finishedConnections == 1 })
        #expect(receiver.bytesSent < 32 * 1024 * 1024, "the stream stopped after \(receiver.bytesSent) bytes")
    }

    @Test func theSameSenderStillWorksAfterACutTransfer() throws {
        let huge = try WebhookReceiver(.endlessChunks)
        defer { huge.stop() }
        let plain = try WebhookReceiver(.status(204))
        defer { plain.stop() }
        let sender = WebhookSender(timeoutMilliseconds: 5_000, allowPrivateNetworks: true, resolver: HostResolver())
        #expect(sender.send(Self.job(url: huge.url), eventID: "msg_a", now: Date()).statusCode == 200)
        let next = sender.send(Self.job(url: plain.url), eventID: "msg_b", now: Date())
        #expect(next.result == .answered(status: 204, retryAfterSeconds: nil))
        #expect(next.bodyBytesRead == 0)
    }
}
