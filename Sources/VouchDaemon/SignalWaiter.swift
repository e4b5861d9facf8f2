import Dispatch
import Foundation

/// Waits for SIGTERM or SIGINT; one Dispatch source owns each, as only one handler per signal can exist.
final class SignalWaiter {
    private let semaphore = DispatchSemaphore(value: 0)
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "vouchd.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            // The default action would kill the process before the source sees the signal.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        let semaphore = self.semaphore
        for source in sources {
            source.setEventHandler { semaphore.signal() }
            source.resume()
        }
    }

    /// Blocks the calling thread until a stop signal arrives.
    func wait() {
        semaphore.wait()
    }
}
