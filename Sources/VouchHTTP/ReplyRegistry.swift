import Synchronization

/// The server's open streams and pending `.later` completions, so `quiesce` can finish the streams and `stop` can
/// answer every pending request and resume every suspended connection before libmicrohttpd is stopped.
///
/// Lock order: this registry's lock, then a stream's (only in `add`); a stream calls back here only after releasing its own.
final class ReplyRegistry: Sendable {
    private struct Entries {
        /// False from `quiesce`: a stream that starts later is finished at once.
        var acceptsStreams = true
        /// False from `stop`: a `.later` that starts later is answered 503 at once.
        var acceptsCompletions = true
        var streams: [ObjectIdentifier: HTTPStream] = [:]
        var completions: [ObjectIdentifier: HTTPCompletion] = [:]
    }

    private let entries = Mutex(Entries())
    /// Streams ended because their client did not read what they were sent.
    let streamsTooSlow = Atomic<Int>(0)
    /// Requests answered `.later` or `.stream` whose request libmicrohttpd has not completed; `stop` lets them finish writing.
    let requestsInFlight = Atomic<Int>(0)

    var openStreams: Int { entries.withLock { $0.streams.count } }
    var pendingCompletions: Int { entries.withLock { $0.completions.count } }

    /// False when streams are no longer accepted, and the caller must finish it.
    func add(_ stream: HTTPStream) -> Bool {
        entries.withLock { entries in
            guard entries.acceptsStreams else { return false }
            if stream.register(with: self) { entries.streams[ObjectIdentifier(stream)] = stream }
            return true
        }
    }

    func streamEnded(_ stream: HTTPStream, tooSlow: Bool) {
        if tooSlow { streamsTooSlow.add(1, ordering: .relaxed) }
        _ = entries.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// False when the server is stopping, and the caller must complete it.
    func add(_ completion: HTTPCompletion, key: ObjectIdentifier) -> Bool {
        entries.withLock { entries in
            guard entries.acceptsCompletions else { return false }
            entries.completions[key] = completion
            return true
        }
    }

    func completionDelivered(key: ObjectIdentifier) {
        _ = entries.withLock { $0.completions.removeValue(forKey: key) }
    }

    /// Accepts no stream from now on; the open ones, for the caller to finish.
    func closeStreams() -> [HTTPStream] {
        entries.withLock { entries in
            entries.acceptsStreams = false
            return Array(entries.streams.values)
        }
    }

    /// Accepts nothing from now on; what is open or pending, for the caller to end.
    func closeAll() -> (streams: [HTTPStream], completions: [HTTPCompletion]) {
        entries.withLock { entries in
            entries.acceptsStreams = false
            entries.acceptsCompletions = false
            return (Array(entries.streams.values), Array(entries.completions.values))
        }
    }
}
