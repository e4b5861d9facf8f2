/// What the evaluator needs to know about one fix: a frozen copy of its state and targets.
public struct FlagRule: Sendable, Equatable {
    public var key: String
    public var state: FixState
    public var revision: Int
    /// Direct targets and enrolled testers' keys.
    public var targetedKeys: Set<String>
    public var rolloutPercentage: Int
    /// The configuration revision of the commit that produced the rule, so a slower thread cannot put an older rule
    /// back into the snapshot after a newer one (0 for rules loaded at start).
    public var version: Int64

    public init(key: String, state: FixState, revision: Int, targetedKeys: Set<String> = [], rolloutPercentage: Int = 0, version: Int64 = 0) {
        self.key = key
        self.state = state
        self.revision = revision
        self.targetedKeys = targetedKeys
        self.rolloutPercentage = rolloutPercentage
        self.version = version
    }

    /// Decides the flag for one targeting key; nil key means the context carried none.
    public func evaluate(targetingKey: String?) -> FlagOutcome {
        switch state {
        case .draft, .paused, .rolledBack, .abandoned:
            return FlagOutcome(rule: self, value: false, reason: .disabled)
        case .released:
            return FlagOutcome(rule: self, value: true, reason: .static)
        case .testing, .promoting, .promotionFailed:
            guard let targetingKey else { return FlagOutcome(rule: self, failure: .targetingKeyMissing) }
            return targetedKeys.contains(targetingKey)
                ? FlagOutcome(rule: self, value: true, reason: .targetingMatch)
                : FlagOutcome(rule: self, value: false, reason: .default)
        case .releasing:
            guard let targetingKey else { return FlagOutcome(rule: self, failure: .targetingKeyMissing) }
            if targetedKeys.contains(targetingKey) { return FlagOutcome(rule: self, value: true, reason: .targetingMatch) }
            let included = Bucketing.isIncluded(group: key, targetingKey: targetingKey, percentage: rolloutPercentage)
            return FlagOutcome(rule: self, value: included, reason: .split)
        }
    }
}
