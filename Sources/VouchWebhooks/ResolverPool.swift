import Foundation

/// `HostResolver`'s threads and the names waiting for them.
///
/// `@unchecked Sendable`: every read and write of `state` holds `condition`, which the idle threads also sleep on.
final class ResolverPool: @unchecked Sendable {
    private struct State {
        /// Names waiting for a thread, oldest first.
        var queue: [String] = []
        /// Every name queued or being looked up, with the callers waiting for it.
        var waiters: [String: [ResolverWaiter]] = [:]
        var running: Set<String> = []
        var threads = 0
        var idleThreads = 0
        var stopping = false
        var counts = HostResolver.Counts()
    }

    private let condition = NSCondition()
    private var state = State()
    private let threadCount: Int
    private let maxThreads: Int
    private let queueLimit: Int
    private let lookup: HostResolver.Lookup

    init(threadCount: Int, maxThreads: Int, queueLimit: Int, lookup: @escaping HostResolver.Lookup) {
        self.threadCount = threadCount
        self.maxThreads = max(threadCount, maxThreads)
        self.queueLimit = queueLimit
        self.lookup = lookup
    }

    var counts: HostResolver.Counts {
        condition.lock()
        defer { condition.unlock() }
        var counts = state.counts
        counts.running = state.running.count
        counts.threads = state.threads
        return counts
    }

    /// Joins the lookup already queued or running for the waiter's name, or queues a new one; answers `.busy` at
    /// once when the queue is full or the pool is stopping.
    func submit(_ waiter: ResolverWaiter) {
        condition.lock()
        let accepted = accept(waiter)
        condition.unlock()
        if !accepted, waiter.settle(.busy) { waiter.notify() }
    }

    /// With `condition` held.
    private func accept(_ waiter: ResolverWaiter) -> Bool {
        let key = waiter.key
        if state.stopping {
            state.counts.refused += 1
            return false
        }
        if state.waiters[key] != nil {
            state.waiters[key, default: []].append(waiter)
            state.counts.shared += 1
            return true
        }
        guard state.queue.count < queueLimit else {
            state.counts.refused += 1
            return false
        }
        state.waiters[key] = [waiter]
        state.queue.append(key)
        startThreadIfNeeded()
        condition.signal()
        return true
    }

    /// With `condition` held. Idle threads take queued names as they wake; a new thread only when there are more names
    /// than idle threads, fewer than `threadCount` threads serve someone, and fewer than `maxThreads` exist. A thread
    /// whose lookup every caller gave up on serves no one: it does not count against `threadCount`, so names that DNS
    /// does not answer for hold up other names only once `maxThreads` threads are stuck.
    private func startThreadIfNeeded() {
        let abandoned = state.running.count { state.waiters[$0]?.isEmpty ?? true }
        guard state.queue.count > state.idleThreads, state.threads - abandoned < threadCount, state.threads < maxThreads else { return }
        state.threads += 1
        let name = "vouchd.dns.\(state.threads)"
        Thread { [self] in
            ResolverPool.nameCurrentThread(name)
            run()
        }.start()
    }

    /// The deadline of a waiter has come: it gets `.timedOut` unless its answer came first. A queued name nobody waits
    /// for any more leaves the queue, so names abandoned behind stuck threads do not fill it.
    func expire(_ waiter: ResolverWaiter) {
        guard waiter.settle(.timedOut) else { return }
        condition.lock()
        state.counts.timeouts += 1
        let key = waiter.key
        state.waiters[key]?.removeAll { $0 === waiter }
        if state.waiters[key]?.isEmpty == true {
            if state.running.contains(key) {
                // Its thread now serves no one: a name still queued may get a thread of its own.
                startThreadIfNeeded()
            } else {
                state.waiters[key] = nil
                state.queue.removeAll { $0 == key }
            }
        }
        condition.unlock()
        waiter.notify()
    }

    /// Ends idle threads and answers `.busy` to names still queued; lookups running finish first.
    func stop() {
        condition.lock()
        state.stopping = true
        let abandoned = state.queue.flatMap { state.waiters.removeValue(forKey: $0) ?? [] }
        state.counts.refused += abandoned.count
        state.queue.removeAll()
        condition.broadcast()
        condition.unlock()
        for waiter in abandoned where waiter.settle(.busy) { waiter.notify() }
    }

    /// One resolver thread: takes the oldest queued name, looks it up without the lock, answers everyone waiting for it.
    /// With nothing to do and more than `threadCount` threads alive, it ends: the threads started past `threadCount`
    /// while others were stuck go once DNS answers again.
    private func run() {
        condition.lock()
        while true {
            while state.queue.isEmpty && !state.stopping && state.threads <= threadCount {
                state.idleThreads += 1
                condition.wait()
                state.idleThreads -= 1
            }
            if state.stopping || state.queue.isEmpty {
                state.threads -= 1
                condition.unlock()
                return
            }
            let key = state.queue.removeFirst()
            state.running.insert(key)
            state.counts.lookups += 1
            condition.unlock()
            let result = lookup(key)
            condition.lock()
            state.running.remove(key)
            let waiting = state.waiters.removeValue(forKey: key) ?? []
            condition.unlock()
            for waiter in waiting where waiter.settle(result) { waiter.notify() }
            condition.lock()
        }
    }

    /// Names the calling thread for `top -H` and debuggers (proc(5): a thread may write its own `comm`, at most 15
    /// bytes). Not `Thread.name`: Foundation on Linux ignores a name set before `start()`, and one set inside the thread
    /// when `start()` has not yet returned. A name that cannot be written only leaves the thread unnamed.
    private static func nameCurrentThread(_ name: String) {
        try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    }
}
