import Foundation
import Testing
@testable import VouchAPI
import VouchDomain
@testable import VouchHTTP
@testable import VouchServerKit

/// Keep-alives are spread over `ofrep.stream_keepalive`: every stream hears one comment per interval, each at its own
/// moment of it, and no tick writes to every stream at once (docs/architecture.md, "Answers that wait").
@Suite struct KeepAliveSpreadTests {
    static let comment = ": keep-alive\n\n"

    /// Streams opened on `hub`, with what they queued on opening (`: open`) read away.
    static func open(_ count: Int, on hub: EventStreamHub) throws -> [HTTPStream] {
        try (0..<count).map { _ in
            guard case .stream(_, let stream) = hub.open(EventStreamHubRaceTests.request()) else { throw Refused() }
            _ = EventStreamHubRaceTests.drained(stream)
            return stream
        }
    }

    struct Refused: Error {}

    @Test func everyStreamHearsOneCommentPerTurnAndNoTickWritesThemAll() throws {
        let settings = EventStreamSettings(keepAliveSeconds: 15, maxStreams: 10_000)
        let hub = EventStreamHub(settings: settings, signingKey: EventStreamHubRaceTests.key, revision: 1, revisedAt: Date(),
                                 principal: { _ in EventStreamHubRaceTests.sdk })
        defer { hub.stop() }
        let streams = try KeepAliveSpreadTests.open(1_000, on: hub)
        let slices = EventStreamHub.keepAliveSlices(settings)
        #expect(slices == 15, "one slice per second of 15 s")
        #expect(EventStreamHub.keepAliveTickMilliseconds(settings) == 1_000)
        var heard = Array(repeating: 0, count: streams.count)
        var largestTick = 0
        for _ in 0..<slices {
            hub.sendKeepAlives(ticks: 1)
            var written = 0
            for (index, stream) in streams.enumerated() {
                let text = EventStreamHubRaceTests.drained(stream)
                if text.isEmpty { continue }
                #expect(text == KeepAliveSpreadTests.comment)
                heard[index] += 1
                written += 1
            }
            largestTick = max(largestTick, written)
        }
        #expect(heard.allSatisfy { $0 == 1 }, "each stream hears exactly one comment per interval")
        #expect(largestTick <= (streams.count + slices - 1) / slices, "a tick wrote \(largestTick) of \(streams.count) streams")
        // The next interval starts over with the same turns.
        hub.sendKeepAlives(ticks: slices)
        #expect(streams.allSatisfy { EventStreamHubRaceTests.drained($0) == KeepAliveSpreadTests.comment })
    }

    @Test func theTimerWritesTheCommentsAtManyMomentsOfTheInterval() throws {
        // The real timer, at the shortest interval allowed: 40 streams in 2 slices, 500 ms apart.
        let hub = EventStreamHub(settings: EventStreamSettings(keepAliveSeconds: 1, maxStreams: 100), signingKey: EventStreamHubRaceTests.key,
                                 revision: 1, revisedAt: Date(), principal: { _ in EventStreamHubRaceTests.sdk })
        defer { hub.stop() }
        let streams = try KeepAliveSpreadTests.open(40, on: hub)
        let started = Date()
        hub.start()
        var heardAt: [Double?] = Array(repeating: nil, count: streams.count)
        while heardAt.contains(where: { $0 == nil }), Date().timeIntervalSince(started) < 5 {
            for (index, stream) in streams.enumerated() where heardAt[index] == nil && stream.queuedBytes > 0 {
                heardAt[index] = Date().timeIntervalSince(started)
            }
            usleep(2_000)
        }
        let times = heardAt.compactMap { $0 }
        #expect(times.count == streams.count, "every stream hears a comment within its interval (and some slack)")
        let spread = (times.max() ?? 0) - (times.min() ?? 0)
        #expect(spread >= 0.3, "the comments came within \(spread) s of each other: written in one tick, not spread")
    }
}
