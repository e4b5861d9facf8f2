import Synchronization
import VouchDomain
import VouchStore

/// The current OFREP snapshot; readers take a reference, writers swap a new one in whole.
public final class SnapshotHolder: Sendable {
    private let current: Mutex<EvaluationSnapshot>
    /// Serializes writers. The next snapshot is built under this lock only, so OFREP readers, who take `current`
    /// for a pointer copy, never wait for a rebuild (milliseconds at 10,000 fixes).
    private let writer = Mutex(())

    public init(_ snapshot: EvaluationSnapshot = .empty) {
        current = Mutex(snapshot)
    }

    public var snapshot: EvaluationSnapshot { current.withLock { $0 } }

    /// Replaces the whole snapshot, as at start.
    public func replace(with snapshot: EvaluationSnapshot) {
        writer.withLock { _ in current.withLock { $0 = snapshot } }
    }

    /// The change feed's subscriber: swaps in every rule a commit changed.
    public func apply(_ committed: CommittedChanges) {
        for case .flagRule(let rule) in committed.changes { update(rule) }
    }

    /// Swaps in one changed rule; serialized so concurrent writers never lose each other's change, and a rule
    /// older than the one in place (a thread that committed earlier but got here later) is ignored.
    public func update(_ rule: FlagRule) {
        writer.withLock { _ in
            let snapshot = self.snapshot
            if let existing = snapshot.rules[rule.key], existing.version > rule.version { return }
            let next = snapshot.replacing(rule.key, with: rule)
            current.withLock { $0 = next }
        }
    }
}
