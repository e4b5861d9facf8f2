import Foundation
import Testing
@testable import VouchWebhooks

/// The resolver's promises: lookups never run on the caller's thread, a caller waits no longer than its timeout,
/// the threads and the queue stay bounded when every lookup hangs, and callers for one name share one lookup.
struct HostResolverTests {
    @Test func aLookupThatNeverReturnsTimesOutOnItsThreadNotTheCallers() {
        let gate = LookupGate()
        defer { gate.open() }
        let resolver = HostResolver(threadCount: 4, lookup: gate.lookup)
        let started = ContinuousClock.now
        #expect(resolver.resolve("never-answers.test", timeout: .milliseconds(200)) == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(200), "the caller waited its whole timeout, no less")
        #expect(gate.names == ["never-answers.test"])
        #expect(gate.threads.allSatisfy { $0.hasPrefix("vouchd.dns.") }, "looked up on \(gate.threads)")
        #expect(resolver.counts.timeouts == 1 && resolver.counts.running == 1)
    }

    /// Two threads, both stuck, and no more allowed; a queue of three. New names wait in the queue and time out at their
    /// deadline; names past the queue are refused at once; no thread is added; abandoned names leave the queue for new ones.
    @Test func whenEveryThreadIsStuckNewNamesQueueAndTimeOutAndTheRestAreRefused() throws {
        let gate = LookupGate()
        defer { gate.open() }
        let resolver = HostResolver(threadCount: 2, maxThreads: 2, queueLimit: 3, lookup: gate.lookup)
        let collector = ResultCollector()
        for index in 0..<2 { collector.resolve("stuck-\(index).test", on: resolver, timeout: .milliseconds(300)) }
        #expect(gate.waitForLookups(2))
        for index in 2..<10 { collector.resolve("stuck-\(index).test", on: resolver, timeout: .milliseconds(300)) }
        let results = try #require(collector.all())
        let timedOut = (0..<5).map { "stuck-\($0).test" }
        #expect(timedOut.allSatisfy { results[$0] == .timedOut }, "\(results)")
        #expect((5..<10).allSatisfy { results["stuck-\($0).test"] == .busy }, "\(results)")
        var counts = resolver.counts
        #expect(counts.threads == 2 && counts.lookups == 2 && counts.running == 2)
        #expect(Set(gate.threads).count == 2, "lookups ran on \(gate.threads)")
        #expect(counts.timeouts == 5 && counts.refused == 5)
        // The three queued names were given up, so the queue has room again, though both threads are still stuck.
        #expect(resolver.resolve("later.test", timeout: .milliseconds(100)) == .timedOut)
        counts = resolver.counts
        #expect(counts.refused == 5 && counts.threads == 2)
        gate.open()
        #expect(resolver.resolve("after.test", timeout: .seconds(30)) == .addresses(["93.184.215.14"]))
        #expect(!gate.names.contains("stuck-2.test"), "a name nobody waits for any more is never looked up")
    }

    /// Two threads for callers, four in all. A lookup every caller gave up on does not count against the two: another
    /// name gets a thread while it hangs, until four threads are stuck; then new names wait and time out. When DNS
    /// answers again, the threads past two end.
    @Test func lookupsNobodyWaitsForHoldUpOtherNamesOnlyPastTheThreadLimit() throws {
        let gate = LookupGate()
        defer { gate.open() }
        let resolver = HostResolver(threadCount: 2, maxThreads: 4) { name in
            name.hasPrefix("silent-") ? gate.lookup(name) : .addresses(["93.184.215.14"])
        }
        for index in 0..<2 { #expect(resolver.resolve("silent-\(index).test", timeout: .milliseconds(200)) == .timedOut) }
        #expect(resolver.resolve("healthy.test", timeout: .seconds(30)) == .addresses(["93.184.215.14"]), "two threads stuck, a third answers")
        for index in 2..<4 { #expect(resolver.resolve("silent-\(index).test", timeout: .milliseconds(200)) == .timedOut) }
        #expect(resolver.counts.threads == 4 && resolver.counts.running == 4)
        #expect(resolver.resolve("later.test", timeout: .milliseconds(200)) == .timedOut, "four threads stuck: the limit")
        #expect(resolver.counts.threads == 4 && resolver.counts.lookups == 5)

        gate.open()
        let deadline = ContinuousClock.now + .seconds(10)
        while resolver.counts.threads > 2 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(resolver.counts.threads == 2, "the threads past two end once they have nothing to do")
        #expect(resolver.resolve("after.test", timeout: .seconds(30)) == .addresses(["93.184.215.14"]))
        #expect(!gate.names.contains("later.test"))
    }

    @Test func callersForTheSameNameShareOneLookup() throws {
        let gate = LookupGate()
        defer { gate.open() }
        let resolver = HostResolver(threadCount: 4, lookup: gate.lookup)
        let collector = ResultCollector()
        collector.resolve("shared.test", on: resolver, timeout: .seconds(30))
        #expect(gate.waitForLookups(1))
        collector.resolve("SHARED.test", on: resolver, timeout: .seconds(30))
        collector.resolve("Shared.Test", on: resolver, timeout: .seconds(30))
        gate.open()
        let results = try #require(collector.all())
        #expect(results.count == 3 && results.values.allSatisfy { $0 == .addresses(["93.184.215.14"]) }, "\(results)")
        #expect(gate.names == ["shared.test"])
        #expect(resolver.counts.lookups == 1 && resolver.counts.shared == 2)
    }

    @Test func aNameThatDoesNotExistIsNotFoundAndOtherFailuresKeepTheirWords() {
        let resolver = HostResolver { name in
            name == "nxdomain.test" ? .notFound : .failed("Temporary failure in name resolution")
        }
        #expect(resolver.resolve("nxdomain.test", timeout: .seconds(30)) == .notFound)
        #expect(resolver.resolve("servfail.test", timeout: .seconds(30)) == .failed("Temporary failure in name resolution"))
        #expect(resolver.counts.timeouts == 0 && resolver.counts.lookups == 2)
    }

    /// The real getaddrinfo: `localhost` comes from /etc/hosts, with no DNS server involved.
    @Test func localhostResolvesThroughTheSystem() throws {
        let resolver = HostResolver()
        guard case .addresses(let addresses) = resolver.resolve("localhost", timeout: .seconds(30)) else {
            Issue.record("localhost did not resolve")
            return
        }
        #expect(addresses.contains { $0 == "127.0.0.1" || $0 == "::1" }, "\(addresses)")
        #expect(HostResolver.systemLookup("127.0.0.1") == .addresses(["127.0.0.1"]))
    }

    /// What a registration hears, through the policy the routes use; the private-network check is unchanged.
    @Test func thePolicyNamesEachOutcomeForTheURLField() throws {
        let gate = LookupGate { name in
            switch name {
            case "nxdomain.test": .notFound
            case "inside.test": .addresses(["93.184.215.14", "10.0.0.8"])
            default: .addresses(["93.184.215.14"])
            }
        }
        defer { gate.open() }
        let resolver = HostResolver(threadCount: 1, maxThreads: 1, queueLimit: 1, lookup: gate.lookup)
        let policy = AddressPolicy(allowPrivateNetworks: false, resolver: resolver, timeout: .milliseconds(150))
        let timedOut = try #require(throws: AddressPolicy.Refusal.self) { try policy.resolve("https://never-answers.test/hook") }
        #expect(timedOut.description.hasPrefix("the host name 'never-answers.test' did not resolve within 0.15s"), "\(timedOut)")
        #expect(timedOut.description.contains("try again") && !timedOut.isBusy)
        // The one thread is stuck; a name waiting in the queue of one fills it.
        ResultCollector().resolve("queued.test", on: resolver, timeout: .seconds(30))
        let busy = try #require(throws: AddressPolicy.Refusal.self) { try policy.resolve("https://another.test/hook") }
        #expect(busy.isBusy && busy.description.contains("try again in a moment"), "\(busy)")

        gate.open()
        let open = HostResolver(lookup: gate.lookup)
        let opened = AddressPolicy(allowPrivateNetworks: false, resolver: open, timeout: .seconds(30))
        let missing = try #require(throws: AddressPolicy.Refusal.self) { try opened.resolve("https://nxdomain.test/hook") }
        #expect(missing.description.hasPrefix("the host name 'nxdomain.test' does not resolve"), "\(missing)")
        let inside = try #require(throws: AddressPolicy.Refusal.self) { try opened.resolve("https://inside.test/hook") }
        #expect(inside.description.hasPrefix("inside.test resolves to 10.0.0.8, a loopback, private or otherwise non-public address"))
        #expect(try opened.resolve("https://public.test:8443/hook").pin == "public.test:8443:93.184.215.14")
    }
}
