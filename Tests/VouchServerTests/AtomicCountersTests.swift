import Dispatch
import Foundation
import Synchronization
import Testing
@testable import VouchHTTP
@testable import VouchServer
import VouchConcurrency

/// Counters striped by thread still count every addition exactly once.
@Suite struct AtomicCountersTests {
    @Test func threadsAddingAtOnceLoseNothing() {
        let counters = AtomicCounters(count: 37)
        StripedCachesTests.onThreads(16) { thread in
            for round in 0..<10_000 { counters.add(1 + thread % 3, at: round % counters.count) }
        }
        // Each thread adds 1, 2 or 3 to every counter in turn: 10,000 additions spread over 37 counters.
        let perThread = (0..<16).map { 1 + $0 % 3 }.reduce(0, +)
        let total = (0..<counters.count).map { counters[$0] }.reduce(0, +)
        #expect(total == perThread * 10_000)
        #expect(counters[0] == perThread * ((10_000 + 36) / 37))
    }

    @Test func stripesStayInRange() {
        let outOfRange = AtomicCounters(count: 1)
        StripedCachesTests.onThreads(32) { _ in
            if !(0..<ThreadStripe.count).contains(ThreadStripe.current()) { outOfRange.add(1, at: 0) }
        }
        #expect(outOfRange[0] == 0)
    }

    /// A thread's stripe, once given, is the one it gets on every later call (kept in a C thread-local variable).
    @Test func aThreadKeepsItsStripe() {
        let changed = AtomicCounters(count: 1)
        StripedCachesTests.onThreads(32) { _ in
            let first = ThreadStripe.current()
            for _ in 0..<1_000 where ThreadStripe.current() != first { changed.add(1, at: 0) }
        }
        #expect(changed[0] == 0)
    }
}
