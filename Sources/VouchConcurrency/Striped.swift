import Synchronization

/// A value kept once per stripe of threads (`ThreadStripe`), each copy behind its own lock: a thread takes only its
/// stripe's lock, which no other thread is likely to hold or to have touched since, so the lock's cache line stays
/// with it. Writers change every copy in turn.
///
/// The locks lie in memory of the object's own, each at the start of its own 128 bytes (two cache lines, as
/// adjacent lines are fetched together), and are reached by address: an array of lock objects would cost a retain
/// and a release of the stripe's object on every use.
public final class Striped<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutableRawPointer
    /// Bytes from one stripe's lock to the next: the lock's size rounded up to whole 128-byte blocks.
    @usableFromInline let stride: Int

    public init(_ make: () -> Value) {
        stride = (MemoryLayout<Mutex<Value>>.stride + 127) / 128 * 128
        base = .allocate(byteCount: stride * ThreadStripe.count, alignment: 128)
        for stripe in 0..<ThreadStripe.count {
            (base + stripe * stride).bindMemory(to: Mutex<Value>.self, capacity: 1).initialize(to: Mutex(make()))
        }
    }

    deinit {
        for stripe in 0..<ThreadStripe.count {
            (base + stripe * stride).assumingMemoryBound(to: Mutex<Value>.self).deinitialize(count: 1)
        }
        base.deallocate()
    }

    @inlinable
    func lock(_ stripe: Int) -> UnsafeMutablePointer<Mutex<Value>> {
        (base + stripe * stride).assumingMemoryBound(to: Mutex<Value>.self)
    }

    /// Runs `body` on the calling thread's copy, under its stripe's lock.
    @inlinable
    public func withCurrent<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        lock(ThreadStripe.current()).pointee.withLock { body(&$0) }
    }

    /// Runs `body` on every copy, one after the other, each under its own lock.
    public func forEach(_ body: (inout Value) -> Void) {
        for stripe in 0..<ThreadStripe.count { lock(stripe).pointee.withLock { body(&$0) } }
    }
}
