import Synchronization

/// One caller waiting for a name: it gets exactly one result, the lookup's or its deadline's, whichever comes first.
final class ResolverWaiter: Sendable {
    /// The name as the lookup is keyed: DNS names are not case-sensitive.
    let key: String
    private let outcome = Mutex<ResolveResult?>(nil)
    private let completion: @Sendable (ResolveResult) -> Void

    init(name: String, completion: @escaping @Sendable (ResolveResult) -> Void) {
        key = name.lowercased()
        self.completion = completion
    }

    /// Gives the waiter `result` unless it already has one; true when this call decided it.
    /// The one who decided calls `notify()` afterwards, outside any lock.
    func settle(_ result: ResolveResult) -> Bool {
        outcome.withLock { current in
            guard current == nil else { return false }
            current = result
            return true
        }
    }

    /// Tells the caller its result, once it is settled.
    func notify() {
        if let result { completion(result) }
    }

    var result: ResolveResult? { outcome.withLock { $0 } }
}
