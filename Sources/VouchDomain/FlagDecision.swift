/// What a flag says for one key, by the state table of docs/lifecycle.md ("States and flag values"): shared by
/// `FlagRule.evaluate` and the snapshot's index, which differ only in how they find targets and the bucket.
enum FlagDecision: Sendable, Equatable {
    case value(Bool, EvaluationReason)
    case failure(FlagOutcome.Failure)

    /// - Parameters:
    ///   - isTargeted: whether the targeting key is among the rule's targets; asked only when the state reads targets.
    ///   - bucket: the key's bucket (1...100) for this flag, by the rule's `Bucketing`; asked only for a phased flag's untargeted key.
    @inline(__always)
    static func make(state: FixState, rolloutPercentage: Int, hasTargetingKey: Bool,
                     isTargeted: () -> Bool, bucket: () -> Int) -> FlagDecision {
        switch state {
        case .draft, .paused, .rolledBack, .abandoned:
            return .value(false, .disabled)
        case .released:
            return .value(true, .static)
        case .testing, .promoting, .promotionFailed:
            guard hasTargetingKey else { return .failure(.targetingKeyMissing) }
            return isTargeted() ? .value(true, .targetingMatch) : .value(false, .default)
        case .releasing:
            guard hasTargetingKey else { return .failure(.targetingKeyMissing) }
            if isTargeted() { return .value(true, .targetingMatch) }
            return .value(bucket() <= rolloutPercentage, .split)
        }
    }
}
