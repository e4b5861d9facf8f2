/// An immutable picture of every flag, read by OFREP without touching the database.
///
/// A change builds a new snapshot and swaps it in whole, so readers never see half an update.
public final class EvaluationSnapshot: Sendable {
    public let rules: [String: FlagRule]
    /// Keys in order, so bulk answers are stable and their ETags repeatable.
    public let orderedKeys: [String]
    /// Counts swaps, for metrics and logs.
    public let generation: UInt64

    public init(rules: [String: FlagRule], generation: UInt64 = 0) {
        self.rules = rules
        orderedKeys = rules.keys.sorted()
        self.generation = generation
    }

    public static let empty = EvaluationSnapshot(rules: [:])

    public func evaluate(flag key: String, targetingKey: String?) -> FlagOutcome? {
        rules[key]?.evaluate(targetingKey: targetingKey)
    }

    public func evaluateAll(targetingKey: String?) -> [FlagOutcome] {
        orderedKeys.map { rules[$0]!.evaluate(targetingKey: targetingKey) }
    }

    /// A new snapshot with one rule replaced, added, or removed (nil).
    public func replacing(_ key: String, with rule: FlagRule?) -> EvaluationSnapshot {
        var next = rules
        next[key] = rule
        return EvaluationSnapshot(rules: next, generation: generation + 1)
    }
}
