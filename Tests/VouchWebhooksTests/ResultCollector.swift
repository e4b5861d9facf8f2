import Dispatch
import Synchronization
import VouchWebhooks

/// Collects the results of `HostResolver`'s callback form, by name.
final class ResultCollector: Sendable {
    private let results = Mutex<[String: ResolveResult]>([:])
    private let group = DispatchGroup()

    func resolve(_ name: String, on resolver: HostResolver, timeout: Duration) {
        group.enter()
        resolver.resolve(name, timeout: timeout) { [self] result in
            results.withLock { $0[name] = result }
            group.leave()
        }
    }

    /// Waits for every answer (30 s at most) and returns them by name.
    func all() -> [String: ResolveResult]? {
        group.wait(timeout: .now() + 30) == .success ? results.withLock { $0 } : nil
    }
}
