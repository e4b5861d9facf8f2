import Synchronization

/// Whether vouchd should get traffic: `/readyz` says 503 until the server listens and its services run,
/// and again from the moment shutdown begins, so a load balancer drains it first.
public final class Readiness: Sendable {
    public enum Phase: Int, Sendable {
        case starting, ready, stopping
    }

    private let value = Atomic<Int>(Phase.starting.rawValue)

    public init() {}

    public var phase: Phase { Phase(rawValue: value.load(ordering: .acquiring)) ?? .starting }

    public func markReady() {
        // Never back to ready once stopping.
        _ = value.compareExchange(expected: Phase.starting.rawValue, desired: Phase.ready.rawValue, ordering: .acquiringAndReleasing)
    }

    public func markStopping() {
        value.store(Phase.stopping.rawValue, ordering: .releasing)
    }
}
