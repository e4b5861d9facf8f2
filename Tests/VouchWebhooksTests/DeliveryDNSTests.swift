import Foundation
import Testing
import VouchDomain
import VouchTestSupport
@testable import VouchWebhooks

/// Deliveries look their host up on the shared resolver within a third of the attempt's timeout. DNS that does not
/// answer, fails or knows no address fails the attempt, which is retried on the schedule; an address the policy
/// refuses kills the delivery at once, as before; a silent DNS server holds no sender longer than the deadline.
@Suite(.serialized) struct DeliveryDNSTests {
    /// 600 ms for the attempt, so 200 ms for the lookup.
    static let timeoutMilliseconds = 600

    @Test func aHostWhoseDNSNeverAnswersFailsTheAttemptAtTheDeadlineAndIsRetried() throws {
        let gate = LookupGate()
        defer { gate.open() }
        let resolver = HostResolver(lookup: gate.lookup)
        let harness = try DeliveryHarness(url: "http://never-answers.test:9/hook", timeoutMilliseconds: Self.timeoutMilliseconds,
                                          retryDelays: [1, 60], resolver: resolver)
        let first = try #require(harness.waitForAttempts(1))
        #expect(first.status == .pending, "a DNS timeout is a failed attempt, retried: \(first.lastError ?? "")")
        #expect(first.lastError == "DNS for host 'never-answers.test' did not answer within 0.2s")
        #expect(first.lastStatusCode == nil)
        let attempt = try #require(try harness.attempts().first)
        #expect((190...1_200).contains(attempt.durationMilliseconds), "the attempt must end at the 200 ms deadline, took \(attempt.durationMilliseconds) ms")

        let second = try #require(harness.waitForAttempts(2))
        #expect(second.attempts == 2 && second.status == .pending, "retried after 1 s, then waits 60 s: \(second)")
        #expect(second.lastError == first.lastError)
        let retryIn = (second.nextAttemptAt ?? .distantPast).timeIntervalSinceNow
        #expect(retryIn > 50 && retryIn <= 60, "the next retry follows the schedule (60 s), got \(retryIn)")
        // The second attempt joined the lookup still stuck from the first: one silent name holds one resolver thread.
        #expect(gate.names == ["never-answers.test"])
        #expect(resolver.counts.lookups == 1 && resolver.counts.shared == 1 && resolver.counts.timeouts == 2)
    }

    /// A resolver that failed, knew no such name or was too busy to ask: DNS may answer next time, so each is retried.
    @Test(arguments: [
        (ResolveResult.failed("Temporary failure in name resolution"), "DNS for host 'dns.test' failed: Temporary failure in name resolution"),
        (.notFound, "DNS has no address for host 'dns.test': the name does not exist, or has no A or AAAA record"),
        (.busy, "DNS for host 'dns.test' was not asked: too many host names were waiting to be looked up"),
    ])
    func aLookupThatGaveNoAddressIsAFailedAttemptRetriedOnTheSchedule(result: ResolveResult, words: String) throws {
        // A queue of none turns every name away as busy.
        let resolver = HostResolver(queueLimit: result == .busy ? 0 : 64) { _ in result }
        let harness = try DeliveryHarness(url: "https://dns.test/hook", timeoutMilliseconds: 2_000, retryDelays: [60], resolver: resolver)
        let delivery = try #require(harness.waitForAttempts(1))
        #expect(delivery.status == .pending)
        #expect(delivery.lastError == words)
        let retryIn = (delivery.nextAttemptAt ?? .distantPast).timeIntervalSinceNow
        #expect(retryIn > 50 && retryIn <= 60, "retried on the schedule (60 s), got \(retryIn)")
    }

    /// When the schedule runs out, the delivery dies with DNS's words, like any other failure.
    @Test func aNameThatNeverResolvesDiesWhenTheRetriesRunOut() throws {
        let harness = try DeliveryHarness(url: "https://gone.test/hook", timeoutMilliseconds: 2_000, retryDelays: [],
                                          resolver: HostResolver { _ in .notFound })
        let delivery = try #require(harness.waitForAttempts(1))
        #expect(delivery.status == .dead)
        #expect(delivery.lastError?.hasPrefix("DNS has no address for host 'gone.test'") == true, "\(delivery.lastError ?? "")")
    }

    @Test(arguments: ["http://inside.test/hook", "http://10.0.0.8/hook"])
    func anAddressThePolicyRefusesStillKillsTheDeliveryAtOnce(url: String) throws {
        let harness = try DeliveryHarness(url: url, timeoutMilliseconds: 2_000, retryDelays: [1, 60], allowPrivateNetworks: false,
                                          resolver: HostResolver { _ in .addresses(["93.184.215.14", "10.0.0.8"]) })
        let delivery = try #require(harness.waitForAttempts(1))
        #expect(delivery.status == .dead, "a refused address is not retried: \(delivery)")
        #expect(delivery.attempts == 1)
        #expect(delivery.lastError?.contains("10.0.0.8") == true && delivery.lastError?.contains("webhooks.allow_private_networks") == true,
                "\(delivery.lastError ?? "")")
    }

    /// Four senders, all waiting on four names whose DNS never answers: a delivery to a receiver on loopback that
    /// arrives then waits for a sender at most until their deadline, not for DNS; also when it is reached by a name,
    /// which needs a resolver thread while four are stuck.
    @Test(arguments: [false, true]) func otherEndpointsAreNotHeldUpWhileOneEndpointsDNSHangs(byName: Bool) throws {
        let gate = LookupGate()
        defer { gate.open() }
        let receiver = try WebhookReceiver(.status(204))
        defer { receiver.stop() }
        let resolver = HostResolver(threadCount: 4) { name in name.hasPrefix("silent-") ? gate.lookup(name) : .addresses(["127.0.0.1"]) }
        let timeoutMilliseconds = 1_500
        let deadline = WebhookSender.lookupDeadline(timeoutMilliseconds: timeoutMilliseconds)
        let silent = (0..<4).map { "http://silent-\($0).test:9/hook" }
        let harness = try DeliveryHarness(url: silent[0], timeoutMilliseconds: timeoutMilliseconds, otherURLs: Array(silent.dropFirst()),
                                          threadCount: 4, resolver: resolver)
        #expect(gate.waitForLookups(4), "every sender is waiting on a silent name")

        let started = ContinuousClock.now
        try harness.addEndpoint("we_good", url: byName ? "http://receiver.test:\(receiver.port)/hook" : receiver.url, withEvent: "msg_good0001")
        let good = harness.waitForDeliveries(ofEvent: "msg_good0001", seconds: 10) { $0.allSatisfy { $0.status != .pending } }
        let waited = ContinuousClock.now - started
        #expect(good.map(\.status) == [.succeeded], "\(good)")
        #expect(waited < deadline + .seconds(1), "the good delivery waited \(waited), more than the \(deadline) DNS deadline and a margin")
        #expect(receiver.requests.count == 1)

        _ = harness.waitForAttempts(1)
        for delivery in harness.deliveries() {
            #expect(delivery.status == .pending && delivery.attempts == 1, "\(delivery)")
            #expect(delivery.lastError?.hasSuffix("did not answer within 0.5s") == true, "\(delivery.lastError ?? "")")
        }
    }
}
