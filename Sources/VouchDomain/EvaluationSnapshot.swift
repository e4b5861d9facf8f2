/// An immutable picture of every flag, read by OFREP without touching the database.
///
/// A change builds a new snapshot and swaps it in whole, so readers never see half an update.
public final class EvaluationSnapshot: Sendable {
    public let rules: [String: FlagRule]
    /// Keys in order, so bulk answers are stable and their ETags repeatable.
    public let orderedKeys: [String]
    /// Counts swaps, for metrics and logs.
    public let generation: UInt64
    /// The configuration revision the rules are at: the one they were loaded at, or the newest version swapped in
    /// since. It only grows, so a client that reads it from answers sees a node never go backwards.
    public let revision: Int64

    /// - Parameter revision: the configuration revision the rules were read at; at least their newest version.
    public convenience init(rules: [String: FlagRule], generation: UInt64 = 0, revision: Int64 = 0) {
        self.init(rules: rules, orderedKeys: rules.keys.sorted(), generation: generation,
                  revision: max(revision, rules.values.map(\.version).max() ?? 0))
    }

    private init(rules: [String: FlagRule], orderedKeys: [String], generation: UInt64, revision: Int64) {
        self.rules = rules
        self.orderedKeys = orderedKeys
        self.generation = generation
        self.revision = revision
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
        let existed = next[key] != nil
        next[key] = rule
        // Re-sorting every key took most of a swap; a changed rule keeps the order, an added or removed one moves
        // one place found by binary search.
        var keys = orderedKeys
        if existed != (rule != nil) {
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            if rule != nil { keys.insert(key, at: low) } else { keys.remove(at: low) }
        }
        return EvaluationSnapshot(rules: next, orderedKeys: keys, generation: generation + 1, revision: max(revision, rule?.version ?? 0))
    }
}
