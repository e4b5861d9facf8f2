import Foundation
import Synchronization

/// A thread that runs the promotion work when it is due or when woken, never on the cooperative pool.
final class PromotionTimer: Sendable {
    private struct State {
        var stopping = false
        var woken = false
        var running = false
    }

    private let state = Mutex(State())
    private let condition = TimerCondition()
    private let maxSleepMilliseconds: Int

    init(maxSleepMilliseconds: Int) {
        self.maxSleepMilliseconds = maxSleepMilliseconds
    }

    /// Runs `work` now and again whenever woken or when the time it returned has come.
    func start(_ work: @escaping @Sendable () -> Date?) {
        state.withLock { $0.running = true }
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopping }) {
                let next = work()
                condition.value.lock()
                let deadline = min(next ?? .distantFuture, Date().addingTimeInterval(Double(maxSleepMilliseconds) / 1_000))
                while !state.withLock({ $0.woken || $0.stopping }) {
                    if !condition.value.wait(until: deadline) { break }
                }
                state.withLock { $0.woken = false }
                condition.value.unlock()
            }
            state.withLock { $0.running = false }
        }
        thread.name = "vouchd.promotion"
        thread.start()
    }

    func wake() {
        condition.value.lock()
        state.withLock { $0.woken = true }
        condition.value.broadcast()
        condition.value.unlock()
    }

    func stop() {
        condition.value.lock()
        state.withLock { $0.stopping = true }
        condition.value.broadcast()
        condition.value.unlock()
        while state.withLock({ $0.running }) { usleep(2_000) }
    }
}

/// `@unchecked Sendable`: NSCondition is thread-safe by design.
final class TimerCondition: @unchecked Sendable {
    let value = NSCondition()
}
