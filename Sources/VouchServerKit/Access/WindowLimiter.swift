import Dispatch
import Synchronization

/// Admits at most `limit` events per key in each window of `windowSeconds`; beyond that, says how long to wait.
///
/// For rare, costly requests that anyone may send (opening a personal link), where a per-key count is what bounds
/// the work; the token-guessing limiter (`AuthFailureLimiter`) counts failures only.
package final class WindowLimiter<Key: Hashable & Sendable>: Sendable {
    private struct Window {
        var start: Double
        var count: Int
    }

    let limit: Int
    let windowSeconds: Int
    /// Keys tracked at most; beyond that, ended windows are dropped first and new keys are refused until one ends.
    static var capacity: Int { 65_536 }
    private let windows = Mutex<[Key: Window]>([:])
    private let now: @Sendable () -> Double

    package init(limit: Int, windowSeconds: Int, now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.limit = limit
        self.windowSeconds = windowSeconds
        self.now = now
    }

    /// Counts one event for `key`: nil when it is admitted, else the seconds until the key's window ends.
    package func admit(_ key: Key) -> Int? {
        let time = now()
        let length = Double(windowSeconds)
        return windows.withLock { windows -> Int? in
            if windows[key] == nil, windows.count >= Self.capacity {
                windows = windows.filter { time - $0.value.start < length }
                guard windows.count < Self.capacity else { return windowSeconds }
            }
            var window = windows[key] ?? Window(start: time, count: 0)
            if time - window.start >= length { window = Window(start: time, count: 0) }
            guard window.count < limit else { return max(1, Int((window.start + length - time).rounded(.up))) }
            window.count += 1
            windows[key] = window
            return nil
        }
    }
}
