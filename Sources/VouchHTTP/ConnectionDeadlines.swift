/// How long a client may take to send a request, after Apache's mod_reqtimeout: the request line and headers
/// within a fixed time, the body at a minimum rate. libmicrohttpd's own timeout only measures silence, which a
/// client sending one byte every few seconds never breaks.
public struct ConnectionDeadlines: Sendable, Equatable {
    /// From accepting the connection, or from the end of the previous request on a kept-alive one, until the
    /// request's headers are complete.
    public var headerMilliseconds: Int
    /// How long the body may take beyond what the minimum rate allows.
    public var bodyMilliseconds: Int
    /// Each byte of body received extends the body's deadline by 1/rate seconds.
    public var bodyMinBytesPerSecond: Int

    public init(headerMilliseconds: Int = 10_000, bodyMilliseconds: Int = 10_000, bodyMinBytesPerSecond: Int = 500) {
        self.headerMilliseconds = max(1, headerMilliseconds)
        self.bodyMilliseconds = max(1, bodyMilliseconds)
        self.bodyMinBytesPerSecond = max(1, bodyMinBytesPerSecond)
    }

    /// True when a connection in `phase` since `since` (milliseconds) has missed its deadline at `now`.
    func isOverdue(_ phase: ConnectionPhase, since: Int, bodyBytes: Int, now: Int) -> Bool {
        switch phase {
        case .waitingForRequest:
            now - since > headerMilliseconds
        case .readingBody:
            now - since > bodyMilliseconds + bodyBytes * 1_000 / bodyMinBytesPerSecond
        case .closed, .handling, .shutDown, .streaming:
            false
        }
    }

    /// How often the reaper looks: an eighth of the shortest deadline, from 25 ms to 1 s, so a connection is
    /// cut at most that late.
    var checkIntervalMilliseconds: Int {
        min(1_000, max(25, min(headerMilliseconds, bodyMilliseconds) / 8))
    }
}

/// Where a connection is, as the reaper sees it. The raw values fit the 3 bits `ConnectionTracker` keeps them in.
enum ConnectionPhase: UInt64 {
    /// No connection in this slot.
    case closed = 0
    /// Accepted, or done with a request, and the next request's headers are not complete yet.
    case waitingForRequest = 1
    /// Headers complete, body arriving.
    case readingBody = 2
    /// The handler has the request, or its answer is being sent: no deadline of the reaper's.
    case handling = 3
    /// The reaper shut the socket down; libmicrohttpd has yet to notice and close it.
    case shutDown = 4
    /// Sending a `.stream` reply, for as long as it lasts: never cut by a deadline, never shed.
    case streaming = 5
}
