import Synchronization

/// A value kept once per stripe of threads (`ThreadStripe`), each copy behind its own lock: a thread takes only its
/// stripe's lock, which no other thread is likely to hold or to have touched since, so the lock's cache line stays
/// with it. Writers change every copy in turn.
public final class Striped<Value: Sendable>: Sendable {
    @usableFromInline final class Stripe: Sendable {
        @usableFromInline let value: Mutex<Value>
        /// Never read: keeps the next stripe's object, allocated right after this one, off this one's cache line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(_ value: sending Value) {
            self.value = Mutex(value)
        }
    }

    @usableFromInline let stripes: [Stripe]

    public init(_ make: () -> Value) {
        stripes = (0..<ThreadStripe.count).map { _ in Stripe(make()) }
    }

    /// Runs `body` on the calling thread's copy, under its stripe's lock.
    @inlinable
    public func withCurrent<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        stripes[ThreadStripe.current()].value.withLock { body(&$0) }
    }

    /// Runs `body` on every copy, one after the other, each under its own lock.
    public func forEach(_ body: (inout Value) -> Void) {
        for stripe in stripes { stripe.value.withLock { body(&$0) } }
    }
}
