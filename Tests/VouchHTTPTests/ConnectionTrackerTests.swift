import Synchronization
import Testing
@testable import VouchHTTP

/// The reaper's decisions on a clock the test moves: who is past a deadline, who is shed near the cap.
@Suite struct ConnectionTrackerTests {
    final class Harness: Sendable {
        final class Clock: Sendable {
            let now = Atomic<Int>(1_000)
        }

        final class ShutDownLog: Sendable {
            let descriptors = Mutex<[Int32]>([])
        }

        let clock = Clock()
        let log = ShutDownLog()
        let tracker: ConnectionTracker

        init(capacity: Int = 64, deadlines: ConnectionDeadlines = ConnectionDeadlines(headerMilliseconds: 1_000, bodyMilliseconds: 2_000,
                                                                                       bodyMinBytesPerSecond: 100)) {
            let clock = clock
            let log = log
            tracker = ConnectionTracker(capacity: capacity, deadlines: deadlines, clock: { clock.now.load(ordering: .relaxed) },
                                        shutDown: { descriptor in log.descriptors.withLock { $0.append(descriptor) } })
        }

        func advance(_ milliseconds: Int) { clock.now.add(milliseconds, ordering: .relaxed) }
        var shut: [Int32] { log.descriptors.withLock { $0 } }

        func open(_ descriptor: Int32) throws -> Int {
            try #require(tracker.opened(descriptor: descriptor).slot)
        }
    }

    @Test func aConnectionWithoutCompleteHeadersIsShutAtTheHeaderDeadlineAndOnlyOnce() throws {
        let harness = Harness()
        _ = try harness.open(10)
        harness.advance(1_000)
        #expect(harness.tracker.reap() == .init())
        harness.advance(1)
        #expect(harness.tracker.reap() == .init(headerDeadline: 1))
        #expect(harness.shut == [10])
        harness.advance(5_000)
        #expect(harness.tracker.reap() == .init(), "shut down already; libmicrohttpd closes it")
    }

    @Test func theHeaderDeadlineRestartsWhenARequestEnds() throws {
        let harness = Harness()
        let slot = try harness.open(10)
        harness.advance(900)
        harness.tracker.enter(.handling, slot: slot)
        harness.advance(5_000)
        #expect(harness.tracker.reap() == .init(), "a request being handled has no deadline")
        harness.tracker.enter(.waitingForRequest, slot: slot)
        harness.advance(1_000)
        #expect(harness.tracker.reap() == .init())
        harness.advance(1)
        #expect(harness.tracker.reap() == .init(headerDeadline: 1))
    }

    @Test func eachBodyByteExtendsTheBodyDeadlineByOneOverTheRate() throws {
        let harness = Harness()
        let slot = try harness.open(10)
        harness.tracker.enter(.readingBody, slot: slot)
        harness.tracker.received(bodyBytes: 100, slot: slot)
        // 2 s, plus 100 bytes at 100 bytes a second.
        harness.advance(3_000)
        #expect(harness.tracker.reap() == .init())
        harness.advance(1)
        #expect(harness.tracker.reap() == .init(bodyRate: 1))
    }

    @Test func aClosedConnectionIsNeverShutEvenPastItsDeadline() throws {
        let harness = Harness()
        let slot = try harness.open(10)
        harness.tracker.closed(slot: slot)
        harness.advance(10_000)
        #expect(harness.tracker.reap() == .init())
        #expect(harness.shut.isEmpty)
        #expect(harness.tracker.openConnections == 0)
        // Its slot serves the next connection, whose deadline is its own.
        #expect(try harness.open(11) == slot)
        #expect(harness.tracker.reap() == .init())
    }

    @Test func nearTheCapTheLongestWaitingAreShedFirstAndBusyOnesAreKept() throws {
        // Capacity 16: shedding starts at 14 open and comes back to 12.
        let harness = Harness(capacity: 16)
        #expect(harness.tracker.shedding.highWater == 14 && harness.tracker.shedding.lowWater == 12)
        var slots: [Int] = []
        for descriptor in Int32(100)..<114 {
            slots.append(try harness.open(descriptor))
            harness.advance(10)
        }
        // The two oldest are busy: one handling a request, one reading a body.
        harness.tracker.enter(.handling, slot: slots[0])
        harness.tracker.enter(.readingBody, slot: slots[1])
        harness.advance(100)
        #expect(harness.tracker.reap() == .init(shed: 2))
        #expect(harness.shut == [102, 103], "the longest waiting, not the busy ones")
    }

    @Test func aStreamingConnectionIsNeverCutNorShedHoweverOldAndCrowded() throws {
        let harness = Harness(capacity: 16)
        var slots: [Int] = []
        for descriptor in Int32(100)..<114 {
            slots.append(try harness.open(descriptor))
            harness.advance(10)
        }
        // The four oldest stream answers; they are the longest waiting, but not waiting for a request.
        for slot in slots.prefix(4) { harness.tracker.enter(.streaming, slot: slot) }
        harness.advance(100)
        #expect(harness.tracker.reap() == .init(shed: 2))
        #expect(harness.shut == [104, 105])
        harness.advance(60_000)
        #expect(harness.tracker.reap() == .init(headerDeadline: 8), "past every deadline, the streams are still left alone")
        #expect(!harness.shut.contains { (100...103).contains($0) })
    }

    @Test func aConnectionThatJustStartedWaitingIsNotShed() throws {
        let harness = Harness(capacity: 4)
        for descriptor in Int32(1)...3 { _ = try harness.open(descriptor) }
        #expect(harness.tracker.reap() == .init(retryInMilliseconds: ConnectionShedding.minimumWaitMilliseconds),
                "its request may be on its way; the reaper comes back when it has waited long enough")
        harness.advance(ConnectionShedding.minimumWaitMilliseconds)
        #expect(harness.tracker.reap() == .init(shed: 1))
    }

    @Test func openingNearTheCapAsksForARoundAtOnce() throws {
        let harness = Harness(capacity: 8)
        let crowded = (Int32(1)...8).map { harness.tracker.opened(descriptor: $0).crowded }
        #expect(crowded == [false, false, false, false, false, false, true, true])
        #expect(harness.tracker.opened(descriptor: 9).slot == nil, "no slot past the capacity")
    }

    @Test(arguments: [(1, 1, 0), (4, 3, 2), (8, 7, 6), (64, 56, 48), (4_096, 3_584, 3_072)])
    func sheddingKeepsAnEighthFreeAndFreesAQuarter(capacity: Int, high: Int, low: Int) {
        let shedding = ConnectionShedding(capacity: capacity)
        #expect(shedding.highWater == high)
        #expect(shedding.lowWater == low)
        #expect(shedding.excess(open: high - 1) == 0)
        #expect(shedding.excess(open: high) == high - low)
    }

    @Test func deadlinesAreAtLeastAMillisecondAndCheckedOftenEnough() {
        let tiny = ConnectionDeadlines(headerMilliseconds: 0, bodyMilliseconds: -5, bodyMinBytesPerSecond: 0)
        #expect(tiny == ConnectionDeadlines(headerMilliseconds: 1, bodyMilliseconds: 1, bodyMinBytesPerSecond: 1))
        #expect(tiny.checkIntervalMilliseconds == 25)
        #expect(ConnectionDeadlines().checkIntervalMilliseconds == 1_000)
        #expect(ConnectionDeadlines(headerMilliseconds: 1_000).checkIntervalMilliseconds == 125)
    }
}
