import Dispatch
import Foundation
import Synchronization

/// SIGTERM or SIGINT (Control-C) asking a long-running command, such as `vouch eval --watch`, to end cleanly:
/// the command checks `isStopped` between steps and waits through `pause`, which a stop cuts short.
final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    func stop() {
        stopped.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Waits `seconds`, or until `stop()`.
    func pause(seconds: Int) {
        guard !isStopped else { return }
        _ = wake.wait(timeout: .now() + .seconds(seconds))
    }

    /// Makes SIGTERM and SIGINT call `stop()` instead of ending the process; keep the sources for as long as that should hold.
    func listen() -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "vouch.signals")
        return [SIGTERM, SIGINT].map { signalNumber in
            // The default action would end the process before the source sees the signal; only one handler per signal can exist.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [self] in stop() }
            source.resume()
            return source
        }
    }
}
