import Foundation
import Synchronization

/// A thread that runs the promotion work when something is due: at the earliest time scheduled, and at least
/// every `maxSleepMilliseconds` as a safety net. Never on the cooperative pool.
final class PromotionTimer: Sendable {
    private struct State {
        var stopping = false
        var running = false
        /// The earliest time something is known to become due (a soak ending, a rollout step).
        var nextDue: Date?
        var scheduleChanged = false
    }

    private let state = Mutex(State())
    private let condition = TimerCondition()
    private let maxSleepMilliseconds: Int

    init(maxSleepMilliseconds: Int) {
        self.maxSleepMilliseconds = maxSleepMilliseconds
    }

    /// Runs `work` at start, whenever a scheduled time comes, and on the safety-net interval; `work` returns the
    /// next time it knows of.
    func start(_ work: @escaping @Sendable () -> Date?) {
        state.withLock { $0.running = true }
        let interval = Double(maxSleepMilliseconds) / 1_000
        let thread = Thread { [self] in
            var fullScanDue = Date()
            while !state.withLock({ $0.stopping }) {
                let now = Date()
                let due = state.withLock { state -> Bool in
                    guard now >= fullScanDue || (state.nextDue.map { now >= $0 } ?? false) else { return false }
                    state.nextDue = nil
                    return true
                }
                if due {
                    if let next = work() { schedule(next) }
                    fullScanDue = Date().addingTimeInterval(interval)
                }
                condition.value.lock()
                while true {
                    let (stopping, changed, next) = state.withLock { ($0.stopping, $0.scheduleChanged, $0.nextDue) }
                    let deadline = min(next ?? .distantFuture, fullScanDue)
                    if stopping || changed || Date() >= deadline { break }
                    _ = condition.value.wait(until: deadline)
                }
                state.withLock { $0.scheduleChanged = false }
                condition.value.unlock()
            }
            state.withLock { $0.running = false }
        }
        thread.name = "vouchd.promotion"
        thread.start()
    }

    /// Makes the timer run its work at `time` (or now, if earlier than anything scheduled).
    func schedule(_ time: Date) {
        condition.value.lock()
        let changed = state.withLock { state -> Bool in
            guard state.nextDue == nil || time < state.nextDue! else { return false }
            state.nextDue = time
            state.scheduleChanged = true
            return true
        }
        if changed { condition.value.broadcast() }
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
