import Synchronization
import VouchDomain
import VouchHTTP
import VouchStore
import VouchConcurrency

/// The current OFREP snapshot; readers take a reference, writers swap a new one in whole.
///
/// Evaluations read it through `withSnapshot`, from a copy of the reference kept per stripe of threads: taking
/// `current`'s lock and a reference count on the snapshot, both shared by every HTTP thread, passed their cache lines
/// between the cores on every request. A copy is refreshed when `generation` shows a newer swap, so no thread reads
/// an older snapshot than one any thread has already answered from.
public final class SnapshotHolder: Sendable {
    private let current: Mutex<EvaluationSnapshot>
    /// Serializes writers. The next snapshot is built under this lock only, so OFREP readers, who take `current`
    /// for a pointer copy, never wait for a rebuild (milliseconds at 10,000 fixes).
    private let writer = Mutex(())
    /// Counts swaps; raised after `current` changes and before the copies do.
    private let generation = Atomic<UInt64>(0)
    private let copies: Striped<StripeCopy>

    /// A stripe's copy of the reference, with the answers encoded from that snapshot in that stripe.
    private struct StripeCopy {
        var generation: UInt64
        var snapshot: EvaluationSnapshot
        var answers = EncodedAnswers()

        mutating func refresh(generation newest: UInt64, snapshot next: EvaluationSnapshot) {
            self = StripeCopy(generation: newest, snapshot: next)
        }
    }

    public init(_ snapshot: EvaluationSnapshot = .empty) {
        current = Mutex(snapshot)
        copies = Striped { StripeCopy(generation: 0, snapshot: snapshot) }
    }

    public var snapshot: EvaluationSnapshot { current.withLock { $0 } }

    /// Runs `body` with the current snapshot, from the calling thread's copy.
    public func withSnapshot<Result: Sendable>(_ body: (EvaluationSnapshot) -> Result) -> Result {
        withCurrentCopy { body($0.snapshot) }
    }

    /// The answer `body` makes from the current snapshot and the answers this stripe encoded from it, to read and to
    /// add to. Not generic, unlike `withSnapshot`: OFREP calls it from another module for every evaluation, where a
    /// generic function runs unspecialised and looks up the stripe lock's type at run time on each call.
    package func response(_ body: (EvaluationSnapshot, inout EncodedAnswers) -> HTTPResponse?) -> HTTPResponse? {
        withCurrentCopy { body($0.snapshot, &$0.answers) }
    }

    /// The calling thread's copy, brought up to the newest snapshot first.
    private func withCurrentCopy<Result: Sendable>(_ body: (inout StripeCopy) -> Result) -> Result {
        let newest = generation.load(ordering: .acquiring)
        return copies.withCurrent { copy in
            if copy.generation < newest { copy.refresh(generation: newest, snapshot: snapshot) }
            return body(&copy)
        }
    }

    /// Replaces the whole snapshot, as at start.
    public func replace(with snapshot: EvaluationSnapshot) {
        writer.withLock { _ in publish(snapshot) }
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
            publish(snapshot.replacing(rule.key, with: rule))
        }
    }

    /// Under `writer`: the new snapshot in `current`, then the generation, then every copy (which readers would
    /// refresh by themselves; done here so that no copy keeps an old snapshot's memory alive).
    private func publish(_ next: EvaluationSnapshot) {
        current.withLock { $0 = next }
        let newest = generation.add(1, ordering: .releasing).newValue
        copies.forEach { copy in
            if copy.generation < newest { copy.refresh(generation: newest, snapshot: next) }
        }
    }
}
