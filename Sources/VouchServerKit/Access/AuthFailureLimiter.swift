import Dispatch
import Synchronization
import VouchHTTP

/// Slows down token guessing: after `maxFailures` unknown tokens from one address within `windowSeconds`,
/// every request from that address that carries a token is answered 429 until the window has passed.
///
/// A right token is refused too while an address is blocked; otherwise a guess that worked would show.
public final class AuthFailureLimiter: Sendable {
    public struct Settings: Sendable {
        public var maxFailures: Int
        public var windowSeconds: Int

        /// Each default is the configuration's (`DaemonSettings`).
        public init(maxFailures: Int = DaemonConfiguration.defaults.integer("auth.max_failures"),
                    windowSeconds: Int = DaemonConfiguration.defaults.seconds("auth.failure_window")) {
            self.maxFailures = maxFailures
            self.windowSeconds = windowSeconds
        }
    }

    private struct Entry {
        var windowStart: Double
        var failures: Int
        var blockedUntil: Double
    }

    /// Addresses tracked at most; beyond that, expired entries go first and new addresses wait their turn.
    static let capacity = 65_536

    package let settings: Settings
    private let entries = Mutex<[ClientAddress: Entry]>([:])
    /// How many addresses have an entry: the request path skips the lock while nobody has failed.
    private let tracked = Atomic<Int>(0)
    private let now: @Sendable () -> Double

    public init(settings: Settings, now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.settings = settings
        self.now = now
    }

    /// Whether any address is counted or blocked now. While none is, `retryAfter` is nil for every address, so a
    /// caller for whom the address costs something to read (the direct OFREP answer) may skip asking.
    public var isTracking: Bool { tracked.load(ordering: .relaxed) > 0 }

    /// Seconds until `address` may try again, or nil when it is not blocked.
    public func retryAfter(for address: ClientAddress) -> Int? {
        guard isTracking else { return nil }
        let time = now()
        return entries.withLock { entries -> Int? in
            guard let entry = entries[address] else { return nil }
            if entry.blockedUntil > time { return max(1, Int((entry.blockedUntil - time).rounded(.up))) }
            if time - entry.windowStart >= Double(settings.windowSeconds) {
                entries[address] = nil
                tracked.store(entries.count, ordering: .relaxed)
            }
            return nil
        }
    }

    /// Counts an unknown or revoked token; true when this failure started a block.
    @discardableResult
    public func recordFailure(from address: ClientAddress) -> Bool {
        let time = now()
        return entries.withLock { entries -> Bool in
            if entries[address] == nil, entries.count >= AuthFailureLimiter.capacity {
                entries = entries.filter { $0.value.blockedUntil > time || time - $0.value.windowStart < Double(settings.windowSeconds) }
                guard entries.count < AuthFailureLimiter.capacity else { return false }
            }
            var entry = entries[address] ?? Entry(windowStart: time, failures: 0, blockedUntil: 0)
            if time - entry.windowStart >= Double(settings.windowSeconds) {
                entry = Entry(windowStart: time, failures: 0, blockedUntil: 0)
            }
            entry.failures += 1
            var startedBlock = false
            if entry.failures >= settings.maxFailures, entry.blockedUntil <= time {
                entry.blockedUntil = time + Double(settings.windowSeconds)
                startedBlock = true
            }
            entries[address] = entry
            tracked.store(entries.count, ordering: .relaxed)
            return startedBlock
        }
    }
}
