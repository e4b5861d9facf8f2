import Dispatch
import Foundation
import Synchronization

/// The thread that enforces the connection deadlines: it runs `work` every interval, sooner when `work` asks
/// (it returns the milliseconds until it wants to run again), and at once when woken (a connection opened near
/// the cap). `stop` waits for the thread to end, so nothing of it outlives the server.
final class ConnectionReaper: Sendable {
    private let intervalMilliseconds: Int
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Set by `wake` until the thread takes it, so a burst of wakes costs one round, not one each.
    private let wakePending = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)

    init(intervalMilliseconds: Int) {
        self.intervalMilliseconds = max(1, intervalMilliseconds)
    }

    func start(_ work: @escaping @Sendable () -> Int?) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            var wait = intervalMilliseconds
            while !stopping.load(ordering: .acquiring) {
                _ = wakeUp.wait(timeout: .now() + .milliseconds(wait))
                wakePending.store(false, ordering: .releasing)
                if stopping.load(ordering: .acquiring) { break }
                wait = min(intervalMilliseconds, max(1, work() ?? intervalMilliseconds))
            }
            finished.signal()
        }
        thread.name = "vouchd.http-deadlines"
        thread.start()
    }

    /// Runs the work as soon as the thread can, without waiting for the interval.
    func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) { wakeUp.signal() }
    }

    /// Ends the thread and waits until it has; no work runs after this returns. Safe to call more than once.
    func stop() {
        guard running.load(ordering: .acquiring), !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeUp.signal()
        finished.wait()
    }
}
