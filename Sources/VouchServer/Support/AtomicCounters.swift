import Synchronization

/// A fixed number of counters that threads add to without a lock, for metrics on the request path.
///
/// `Atomic` cannot be copied, so the counters live in memory allocated once; `@unchecked Sendable` because
/// the pointer never changes and every access goes through an atomic operation.
final class AtomicCounters: @unchecked Sendable {
    let count: Int
    private let counters: UnsafeMutablePointer<Atomic<Int>>

    init(count: Int) {
        self.count = count
        counters = .allocate(capacity: count)
        for index in 0..<count { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: count)
        counters.deallocate()
    }

    func add(_ value: Int, at index: Int) {
        counters[index].add(value, ordering: .relaxed)
    }

    subscript(index: Int) -> Int {
        counters[index].load(ordering: .relaxed)
    }
}
