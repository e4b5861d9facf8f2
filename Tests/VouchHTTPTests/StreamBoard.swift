import Foundation
import Synchronization
import VouchHTTP

/// The streams a test server opened, in order, and how many of them have closed.
final class StreamBoard: Sendable {
    let streams = Mutex<[HTTPStream]>([])
    let closed = Atomic<Int>(0)

    static let head = HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "text/event-stream")])

    /// A `.stream` reply whose stream is on the board; `first` is sent before the handler returns.
    func open(first: String? = nil) -> HTTPReply {
        let stream = HTTPStream { [self] in closed.add(1, ordering: .relaxed) }
        if let first { stream.send(Array(first.utf8)) }
        streams.withLock { $0.append(stream) }
        return .stream(StreamBoard.head, stream)
    }

    var closedCount: Int { closed.load(ordering: .relaxed) }

    /// The first `count` streams, once that many are open; nil if they were not within `seconds`.
    func streams(_ count: Int, within seconds: Double = 10) -> [HTTPStream]? {
        guard StreamBoard.poll(seconds, until: { self.streams.withLock { $0.count } >= count }) else { return nil }
        return streams.withLock { Array($0.prefix(count)) }
    }

    /// True once `count` streams have closed, false if they had not within `seconds`.
    func waitUntilClosed(_ count: Int, within seconds: Double = 10) -> Bool {
        StreamBoard.poll(seconds) { self.closedCount >= count }
    }

    /// Checks `condition` every 5 ms, for `seconds` at most.
    static func poll(_ seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(5_000)
        }
        return true
    }
}
