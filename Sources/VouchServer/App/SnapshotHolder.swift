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

    /// Swaps in one changed rule; serialized so concurrent writers never lose each other's change.
    public func update(_ rule: FlagRule) {
        current.withLock { $0 = $0.replacing(rule.key, with: rule) }
    }
}
