/// OpenFeature's resolution reasons, as OFREP sends them.
public enum EvaluationReason: String, Sendable {
    /// The fix's state turns the flag off for everyone.
    case disabled = "DISABLED"
    /// The key is a tester's or a direct target.
    case targetingMatch = "TARGETING_MATCH"
    /// In testing and the key is not targeted.
    case `default` = "DEFAULT"
    /// Phased rollout decided by the key's bucket.
    case split = "SPLIT"
    /// Released to everyone.
    case `static` = "STATIC"
}

extension EvaluationReason {
    /// Its place in the order above (0 to 4), for compact keys such as `FlagVerdict.decisionCode`.
    var ordinal: Int {
        switch self {
        case .disabled: 0
        case .targetingMatch: 1
        case .default: 2
        case .split: 3
        case .static: 4
        }
    }
}
