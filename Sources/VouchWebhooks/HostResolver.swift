import Dispatch
import Foundation

/// Looks host names up on a few threads of its own, so that a caller waits no longer than the timeout it gives.
///
/// getaddrinfo takes no deadline and cannot be cancelled: a DNS server that drops a query holds the calling thread
/// for the resolver's own timeouts and attempts (`options timeout:5 attempts:2` in resolv.conf is ten seconds or
/// more). So lookups run on threads of the resolver's own, started when first needed, and the caller waits only until
/// its own deadline; a lookup still running then goes on in its thread and its answer is dropped.
///
/// Bounded: at most `threadCount` threads look up names that someone still waits for. A thread whose every caller
/// gave up no longer counts, so names on a silent DNS server do not hold up the others, until `maxThreads` threads
/// exist in all; then new names wait in a queue of at most `queueLimit` and still time out at their deadline, and past
/// that they are answered `.busy` at once. Callers asking for a name already queued or being looked up share that one
/// lookup, so many requests for one silent name hold one thread, not all of them. Threads past `threadCount` end
/// when they find nothing to do. docs/decisions.md, "Webhook host names checked at registration, within a timeout".
public final class HostResolver: Sendable {
    /// Looks one name up, blocking as long as it takes: `systemLookup`, or a stand-in in tests.
    public typealias Lookup = @Sendable (_ name: String) -> ResolveResult

    /// What the resolver has done since it was made, for `/metrics`.
    public struct Counts: Sendable, Equatable {
        /// Lookups started on a resolver thread.
        public var lookups = 0
        /// Requests that joined a lookup of the same name already queued or running.
        public var shared = 0
        /// Requests answered `.timedOut`.
        public var timeouts = 0
        /// Requests answered `.busy`: the queue was full, or the resolver was stopping.
        public var refused = 0
        /// Lookups running now; those still running long after their callers' deadlines are stuck.
        public var running = 0
        /// Resolver threads alive: started when first needed; `threadCount` are kept until the resolver goes, more only
        /// while lookups nobody waits for are stuck; never more than `maxThreads`.
        public var threads = 0
    }

    private let pool: ResolverPool

    /// - Parameters:
    ///   - threadCount: the most lookups that callers wait for at once. Eight: the four delivery senders wait for one
    ///     name each at most, which leaves four for the routes that register webhooks.
    ///   - maxThreads: the most threads in all, counting those stuck in lookups every caller gave up on; at least
    ///     `threadCount`. 32 covers the four senders and the HTTP threads each giving up on a new silent name at every
    ///     deadline while the system resolver takes its ten seconds and more to give up itself.
    ///   - queueLimit: the most names that wait for a thread; a new name past it is answered `.busy`.
    ///   - lookup: what runs on those threads.
    public init(threadCount: Int = 8, maxThreads: Int = 32, queueLimit: Int = 64, lookup: @escaping Lookup = HostResolver.systemLookup) {
        pool = ResolverPool(threadCount: max(1, threadCount), maxThreads: maxThreads, queueLimit: max(0, queueLimit), lookup: lookup)
    }

    /// Idle threads end; a thread still in a lookup ends when the lookup returns.
    deinit { pool.stop() }

    /// Looks `name` up, waiting at most `timeout`; never runs the lookup on the calling thread.
    public func resolve(_ name: String, timeout: Duration) -> ResolveResult {
        let answered = DispatchSemaphore(value: 0)
        let waiter = ResolverWaiter(name: name) { _ in answered.signal() }
        pool.submit(waiter)
        if answered.wait(timeout: .now() + timeout.dispatchInterval) == .timedOut {
            pool.expire(waiter)
            // The waiter has its result now, whoever gave it; wait for the signal that came or is on its way.
            answered.wait()
        }
        return waiter.result ?? .timedOut
    }

    /// Looks `name` up and calls `completion` once: with the answer, or `.timedOut` at the deadline, on another thread;
    /// or with `.busy` at once, on this one. For a caller that must not wait at all (a suspended HTTP connection,
    /// resumed from the completion).
    public func resolve(_ name: String, timeout: Duration, completion: @escaping @Sendable (ResolveResult) -> Void) {
        let waiter = ResolverWaiter(name: name, completion: completion)
        pool.submit(waiter)
        guard waiter.result == nil else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { [pool] in pool.expire(waiter) }
    }

    public var counts: Counts { pool.counts }
}

extension Duration {
    /// `2s`, or `1.5s`: whole milliseconds, for messages.
    var secondsText: String {
        let milliseconds = components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000)s" : "\(Double(milliseconds) / 1_000)s"
    }

    /// The duration for Dispatch, in nanoseconds; a negative one is none, and one over 68 years is 68 years.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 && attoseconds >= 0 else { return .nanoseconds(0) }
        return .nanoseconds(Int(min(seconds, Int64(Int32.max))) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
