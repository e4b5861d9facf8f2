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
