/// What the evaluator needs to know about one fix: a frozen copy of its state and targets.
public struct FlagRule: Sendable, Equatable {
    public var key: String
    public var state: FixState
    public var revision: Int
    /// Direct targets and enrolled testers' keys.
    public var targetedKeys: Set<String>
    public var rolloutPercentage: Int
    /// How the phased rollout buckets keys: flagd's for every rollout started since the flagd bridge.
    public var bucketing: Bucketing
    /// The configuration revision of the commit that produced the rule, so a slower thread cannot put an older rule
    /// back into the snapshot after a newer one (0 for rules loaded at start).
    public var version: Int64

    public init(key: String, state: FixState, revision: Int, targetedKeys: Set<String> = [], rolloutPercentage: Int = 0, bucketing: Bucketing = .flagd,
                version: Int64 = 0) {
        self.key = key
        self.state = state
        self.revision = revision
        self.targetedKeys = targetedKeys
        self.rolloutPercentage = rolloutPercentage
        self.bucketing = bucketing
        self.version = version
    }

    /// Decides the flag for one targeting key; nil key means the context carried none.
    public func evaluate(targetingKey: String?) -> FlagOutcome {
        let decision = FlagDecision.make(state: state, rolloutPercentage: rolloutPercentage, hasTargetingKey: targetingKey != nil,
                                         isTargeted: { targetedKeys.contains(targetingKey ?? "") },
                                         bucket: { bucketing.bucket(flagKey: key, targetingKey: targetingKey ?? "") })
        return FlagOutcome(key: key, revision: revision, state: state, decision: decision)
    }
}
