#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A fixed number of counters that threads add to without a lock, for metrics on the request path.
///
/// Every counter has a copy per stripe, and a thread adds to its own stripe (`ThreadStripe`): two threads counting the same
/// answers would otherwise pass the counter's cache line back and forth on every request. Reading sums the stripes.
/// Stripes start on their own cache lines; the memory is zeroed by `calloc`, so pages of stripes no thread uses are
/// never backed. `@unchecked Sendable` because the pointer never changes and every access goes through an atomic
/// operation.
public final class AtomicCounters: @unchecked Sendable {
    public let count: Int
    /// Counters from one stripe to the next: `count` rounded up to whole 128-byte blocks.
    @usableFromInline let stripeStride: Int
    private let allocation: UnsafeMutableRawPointer
    @usableFromInline let counters: UnsafeMutablePointer<Atomic<Int>>

    public init(count: Int) {
        self.count = count
        let perBlock = 128 / MemoryLayout<Atomic<Int>>.stride
        stripeStride = (count + perBlock - 1) / perBlock * perBlock
        // 128 bytes more than needed, to start the first stripe on a 128-byte boundary.
        allocation = calloc(ThreadStripe.count * stripeStride * MemoryLayout<Atomic<Int>>.stride + 128, 1)!
        let aligned = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: allocation) + 127) & ~127)!
        // Zero bytes are a zero `Atomic<Int>`.
        counters = aligned.bindMemory(to: Atomic<Int>.self, capacity: ThreadStripe.count * stripeStride)
    }

    deinit {
        free(allocation)
    }

    @inlinable
    public func add(_ value: Int, at index: Int) {
        counters[ThreadStripe.current() * stripeStride + index].add(value, ordering: .relaxed)
    }

    public subscript(index: Int) -> Int {
        var sum = 0
        for stripe in 0..<ThreadStripe.count { sum &+= counters[stripe * stripeStride + index].load(ordering: .relaxed) }
        return sum
    }
}
