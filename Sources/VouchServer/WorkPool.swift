import Dispatch
import Foundation
import Synchronization

/// A fixed set of threads for requests that may wait (a group commit, a DNS lookup), so that libmicrohttpd's few
/// threads never do: the server parks the request's connection and one of these finishes it.
///
/// Fixed and bounded on purpose: many threads let many submissions wait for the same commit (group commit needs
/// waiters to batch), and a bounded queue refuses work (503) rather than growing without limit under overload.
public final class WorkPool: Sendable {
    private struct State {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var stopping = false
    }

    public let threadCount: Int
    public let maxQueued: Int
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    public init(threads: Int, maxQueued: Int = 4_096, name: String = "vouch.work") {
        threadCount = max(1, threads)
        self.maxQueued = max(1, maxQueued)
        for index in 0..<threadCount {
            finished.enter()
            let thread = Thread { [self] in
                run()
                finished.leave()
            }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    /// Queues `work`; false when the queue is full or the pool is stopping.
    @discardableResult
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping, state.queue.count - state.head < maxQueued else { return false }
            state.queue.append(work)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// True once `stop` began: nothing new is accepted.
    public var isStopping: Bool { state.withLock { $0.stopping } }

    /// Work queued or running.
    public var backlog: Int { state.withLock { $0.queue.count - $0.head } }

    /// Runs what is queued, then stops every thread and waits for them.
    public func stop() {
        let alreadyStopping = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return state.stopping
        }
        guard !alreadyStopping else { return }
        for _ in 0..<threadCount { available.signal() }
        finished.wait()
    }

    private func run() {
        while true {
            available.wait()
            let work = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.head < state.queue.count else { return nil }
                let work = state.queue[state.head]
                state.head += 1
                // Compact now and then rather than shifting the array on every take.
                if state.head >= 1_024, state.head * 2 >= state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                return work
            }
            guard let work else {
                // Woken with nothing queued: only `stop` does that.
                if state.withLock({ $0.stopping }) { return }
                continue
            }
            work()
        }
    }
}
