/// The result of evaluating one flag for one context: a value with its reason, or an OFREP error.
public struct FlagOutcome: Sendable, Equatable {
    public enum Failure: String, Sendable {
        case targetingKeyMissing = "TARGETING_KEY_MISSING"

        public var details: String {
            switch self {
            case .targetingKeyMissing: "this flag is on for some users only, so the context needs a targetingKey (the app's stable user id)"
            }
        }
    }

    // In this order the outcome is 32 bytes, not 40 (the one-byte fields after the 8-byte ones leave no padding
    // between): a bulk evaluation of every flag writes one per flag.
    public var key: String
    public var revision: Int
    public var value: Bool
    public var reason: EvaluationReason?
    public var failure: Failure?
    public var state: FixState

    public init(rule: FlagRule, value: Bool, reason: EvaluationReason) {
        self.init(key: rule.key, revision: rule.revision, state: rule.state, decision: .value(value, reason))
    }

    public init(rule: FlagRule, failure: Failure) {
        self.init(key: rule.key, revision: rule.revision, state: rule.state, decision: .failure(failure))
    }

    init(key: String, revision: Int, state: FixState, decision: FlagDecision) {
        self.key = key
        switch decision {
        case .value(let value, let reason):
            self.value = value
            self.reason = reason
            failure = nil
        case .failure(let failure):
            value = false
            reason = nil
            self.failure = failure
        }
        self.revision = revision
        self.state = state
    }

    public var variant: String { value ? "on" : "off" }
}
