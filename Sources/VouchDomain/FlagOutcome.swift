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

    public var key: String
    public var value: Bool
    public var reason: EvaluationReason?
    public var failure: Failure?
    public var revision: Int
    public var state: FixState

    public init(rule: FlagRule, value: Bool, reason: EvaluationReason) {
        key = rule.key
        self.value = value
        self.reason = reason
        failure = nil
        revision = rule.revision
        state = rule.state
    }

    public init(rule: FlagRule, failure: Failure) {
        key = rule.key
        value = false
        reason = nil
        self.failure = failure
        revision = rule.revision
        state = rule.state
    }

    public var variant: String { value ? "on" : "off" }
}
