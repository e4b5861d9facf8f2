#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Which of a few stripes the calling thread uses, for state every request touches (metrics, the token cache, the
/// current snapshot): a copy per stripe keeps the HTTP threads from passing one cache line back and forth on every
/// request (docs/architecture.md, "The OFREP hot path").
public enum ThreadStripe {
    /// Stripes; a power of two, several times the HTTP threads of the machines Vouch runs on.
    public static let count = 8

    /// Each thread's stripe, plus one, in its thread-specific value (no object: nothing to free when it ends).
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key is left for the stripes")
        return key
    }()

    @usableFromInline static let assigned = Atomic<Int>(0)

    /// Given out in turn as threads first ask, so the HTTP threads, which start together, get stripes of their own.
    /// Past `count` threads, stripes are shared; threads sharing one still see the same values, only without the
    /// benefit.
    @inlinable
    public static func current() -> Int {
        if let value = pthread_getspecific(key) { return Int(bitPattern: value) - 1 }
        let stripe = assigned.add(1, ordering: .relaxed).oldValue & (count - 1)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: stripe + 1))
        return stripe
    }
}
