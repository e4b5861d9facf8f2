/// What one evaluation decided, without the strings of its outcome: the flag's place in the snapshot that decided
/// and the decision. Two equal verdicts of one snapshot stand for the same outcome, so a server can keep the answer
/// it encoded for one and send it again for the other (`EvaluationSnapshot.outcome(of:key:)` makes the outcome).
public struct FlagVerdict: Sendable, Equatable {
    /// The flag's slot in the snapshot's index; meaningful only with that snapshot.
    public let slot: Int
    let decision: FlagDecision

    init(slot: Int, decision: FlagDecision) {
        self.slot = slot
        self.decision = decision
    }

    /// The reason of a value; nil for a failure.
    public var reason: EvaluationReason? {
        if case .value(_, let reason) = decision { return reason }
        return nil
    }

    /// Why the flag has no value for this context; nil when it has one.
    public var failure: FlagOutcome.Failure? {
        if case .failure(let failure) = decision { return failure }
        return nil
    }

    /// A small number for the decision (0 to 10), equal for equal decisions: 0 for a failure; for a value,
    /// 1 + twice the reason's `ordinal`, plus 1 when the value is true.
    public var decisionCode: Int {
        switch decision {
        case .failure: 0
        case .value(let value, let reason): 1 + 2 * reason.ordinal + (value ? 1 : 0)
        }
    }
}
