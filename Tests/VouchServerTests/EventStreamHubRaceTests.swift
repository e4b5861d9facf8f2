import Dispatch
import Foundation
import Synchronization
import Testing
@testable import VouchAPI
import VouchDomain
@testable import VouchHTTP
@testable import VouchServer
@testable import VouchServerKit

/// The hub on its own, where opening a stream races a revocation, other opens and a change.
@Suite struct EventStreamHubRaceTests {
    static let key = Array(repeating: UInt8(7), count: 32)
    static let sdk = Principal(name: "tv app", role: .sdk, tokenID: "tok-1")

    static func hub(maxStreams: Int = 100, principal: @escaping @Sendable (String) -> Principal? = { _ in sdk }) -> EventStreamHub {
        EventStreamHub(settings: EventStreamSettings(maxStreams: maxStreams), signingKey: key, revision: 1, revisedAt: Date(),
                       principal: principal)
    }

    static func request(lastEventID: String? = nil) -> HTTPRequest {
        let credential = StreamCredential.current(tokenID: sdk.tokenID, now: Date(), lifetimeSeconds: 3_600).encoded(key: key)
        return HTTPRequest(method: "GET", path: EventStreamHub.path, query: ["credential": credential],
                           headers: lastEventID.map { ["last-event-id": $0] } ?? [:])
    }

    /// Everything queued on a stream that no connection reads yet.
    static func drained(_ stream: HTTPStream) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        for _ in 0..<64 {
            let count = buffer.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, maximum: $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` on `count` threads released at the same moment, and waits for them all.
    static func together(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let ready = Atomic<Int>(0)
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            Thread {
                ready.add(1, ordering: .acquiringAndReleasing)
                while ready.load(ordering: .acquiring) < count {}
                body(index)
                done.leave()
            }.start()
        }
        done.wait()
    }

    @Test func aTokenRevokedWhileItsStreamOpensLeavesNoStreamOpen() {
        // The revocation commits, and its streams are closed, just after the credential's token was looked up.
        let revoked = Atomic<Bool>(false)
        let hubBox = Mutex<EventStreamHub?>(nil)
        let hub = EventStreamHubRaceTests.hub { _ in
            if revoked.load(ordering: .acquiring) { return nil }
            revoked.store(true, ordering: .releasing)
            hubBox.withLock { $0 }?.closeStreams(ofToken: EventStreamHubRaceTests.sdk.tokenID)
            return EventStreamHubRaceTests.sdk
        }
        hubBox.withLock { $0 = hub }
        let reply = hub.open(EventStreamHubRaceTests.request())
        if case .stream(_, let stream) = reply {
            #expect(!stream.isOpen, "a stream of a revoked token must not stay open")
        }
        #expect(hub.openStreams == 0)
        hubBox.withLock { $0 = nil }
    }

    @Test func concurrentOpensNeverPassTheLimit() {
        // Each round: several threads open at once against a limit of one.
        var overshoot = 0
        let deadline = Date().addingTimeInterval(3)
        for _ in 0..<200 where Date() < deadline {
            let hub = EventStreamHubRaceTests.hub(maxStreams: 1)
            let accepted = Atomic<Int>(0)
            let request = EventStreamHubRaceTests.request()
            EventStreamHubRaceTests.together(4) { _ in
                if case .stream = hub.open(request) { accepted.add(1, ordering: .relaxed) }
            }
            if accepted.load(ordering: .relaxed) > 1 || hub.openStreams > 1 { overshoot += 1 }
            hub.stop()
        }
        #expect(overshoot == 0, "rounds in which more streams opened than max_streams allows")
    }

    @Test func aStreamNeverHearsAnOlderIDAfterANewerOne() throws {
        // A reconnecting client catches up while changes fan out: the ids it hears only ever grow.
        var disorder = 0
        let deadline = Date().addingTimeInterval(3)
        for round in 0..<300 where Date() < deadline {
            let hub = EventStreamHubRaceTests.hub()
            let stream = Mutex<HTTPStream?>(nil)
            EventStreamHubRaceTests.together(2) { index in
                if index == 0 {
                    if case .stream(_, let opened) = hub.open(EventStreamHubRaceTests.request(lastEventID: "0")) {
                        stream.withLock { $0 = opened }
                    }
                } else {
                    for revision in 2...4 { hub.configurationChanged(revision: Int64(revision), at: Date(), flagsChanged: true) }
                }
            }
            hub.stop()
            let opened = try #require(stream.withLock { $0 }, "round \(round)")
            let ids = EventStreamHubRaceTests.drained(opened).split(separator: "\n")
                .filter { $0.hasPrefix("id: ") }.compactMap { Int64($0.dropFirst(4)) }
            if ids != ids.sorted() { disorder += 1 }
        }
        #expect(disorder == 0, "rounds in which a stream heard an older id after a newer one")
    }
}
