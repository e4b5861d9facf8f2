import Synchronization
import VouchDomain

/// The current OFREP snapshot; readers take a reference, writers swap a new one in whole.
public final class SnapshotHolder: Sendable {
    private let current: Mutex<EvaluationSnapshot>

    public init(_ snapshot: EvaluationSnapshot = .empty) {
        current = Mutex(snapshot)
    }

    public var snapshot: EvaluationSnapshot { current.withLock { $0 } }

    /// Replaces the whole snapshot, as at start.
    public func replace(with snapshot: EvaluationSnapshot) {
        current.withLock { $0 = snapshot }
    }

    /// Swaps in one changed rule; serialized so concurrent writers never lose each other's change, and a rule
    /// older than the one in place (a thread that committed earlier but got here later) is ignored.
    public func update(_ rule: FlagRule) {
        current.withLock { snapshot in
            if let existing = snapshot.rules[rule.key], existing.version > rule.version { return }
            snapshot = snapshot.replacing(rule.key, with: rule)
        }
    }
}
