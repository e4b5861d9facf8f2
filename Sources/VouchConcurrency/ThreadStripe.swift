import CThreadLocal
import Synchronization

/// Which of a few stripes the calling thread uses, for state every request touches (metrics, the token cache, the
/// current snapshot): a copy per stripe keeps the HTTP threads from passing one cache line back and forth on every
/// request (docs/architecture.md, "The OFREP hot path").
public enum ThreadStripe {
    /// Stripes; a power of two, several times the HTTP threads of the machines Vouch runs on.
    public static let count = 8

    @usableFromInline static let assigned = Atomic<Int>(0)

    /// Given out in turn as threads first ask, so the HTTP threads, which start together, get stripes of their own.
    /// Past `count` threads, stripes are shared; threads sharing one still see the same values, only without the
    /// benefit.
    ///
    /// Each thread's stripe, plus one, is in a C thread-local variable (`CThreadLocal`): asked about ten times per
    /// OFREP request, `pthread_getspecific` with its lazily made key would cost a call and a `swift_once` check
    /// each time.
    @inlinable
    public static func current() -> Int {
        let kept = vouch_thread_stripe_get()
        if kept != 0 { return kept - 1 }
        let stripe = assigned.add(1, ordering: .relaxed).oldValue & (count - 1)
        vouch_thread_stripe_set(stripe + 1)
        return stripe
    }
}
