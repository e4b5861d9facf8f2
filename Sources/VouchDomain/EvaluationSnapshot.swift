/// An immutable picture of every flag, read by OFREP without touching the database.
///
/// A change builds a new snapshot and swaps it in whole, so readers never see half an update. Evaluation reads the
/// flat `FlagIndex`, not `rules`: the table of `FlagRule`s is kept for writers (which compare versions and
/// compute what a changed rule adds and removes) and is never touched by a request.
public final class EvaluationSnapshot: Sendable {
    /// The rules by flag key; each is stored under its own `key`, in the index beside its record.
    public var rules: RuleTable { RuleTable(index: index) }
    /// Keys in order, so bulk answers are stable and their ETags repeatable.
    public let orderedKeys: [String]
    /// Counts swaps, for metrics and logs.
    public let generation: UInt64
    /// The configuration revision the rules are at: the one they were loaded at, or the newest version swapped in
    /// since. It only grows, so a client that reads it from answers sees a node never go backwards.
    public let revision: Int64
    let index: FlagIndex

    /// - Parameter revision: the configuration revision the rules were read at; at least their newest version.
    public convenience init(rules: [String: FlagRule], generation: UInt64 = 0, revision: Int64 = 0) {
        self.init(rules: Array(rules.values), generation: generation, revision: revision)
    }

    /// The snapshot of rules as a store reads them, in any order; of two rules with the same key the later one
    /// counts. Taking them as they come, not as a dictionary, spares a start-up a million hashed insertions and
    /// look-ups at a million fixes, each a cache miss (BENCHMARKS.md, part 12).
    public convenience init(rules: [FlagRule], generation: UInt64 = 0, revision: Int64 = 0) {
        let sorted = EvaluationSnapshot.keyOrder(of: rules)
        self.init(orderedKeys: sorted.keys, index: FlagIndex.build(rules: rules, order: sorted.order, orderedKeys: sorted.keys),
                  generation: generation,
                  revision: max(revision, rules.reduce(0) { max($0, $1.version) }))
    }

    /// The rules' keys in order, and for each the position of its rule in `rules`; a key given twice keeps its
    /// last rule.
    private static func keyOrder(of rules: [FlagRule]) -> (keys: [String], order: [Int]) {
        // Sorted as (key, position) pairs side by side, so a comparison reads the two keys and nothing else. The
        // sort is stable, so of equal keys the later rule comes last.
        var pairs = rules.indices.map { (key: rules[$0].key, position: $0) }
        pairs.sort { $0.key < $1.key }
        var keys: [String] = []
        var order: [Int] = []
        keys.reserveCapacity(pairs.count)
        order.reserveCapacity(pairs.count)
        for pair in pairs {
            if let last = keys.last, last == pair.key {
                order[order.count - 1] = pair.position
            } else {
                keys.append(pair.key)
                order.append(pair.position)
            }
        }
        return (keys, order)
    }

    private init(orderedKeys: [String], index: FlagIndex, generation: UInt64, revision: Int64) {
        self.orderedKeys = orderedKeys
        self.index = index
        self.generation = generation
        self.revision = revision
    }

    public static let empty = EvaluationSnapshot(rules: [:])

    /// The outcome carries the caller's `key`, equal to the rule's: no String of the snapshot is retained per call.
    public func evaluate(flag key: String, targetingKey: String?) -> FlagOutcome? {
        key.withUTF8Bytes { flagBytes in
            let found: FlagVerdict?
            if let targetingKey {
                found = targetingKey.withUTF8Bytes { verdict(flag: flagBytes, targetingKey: $0) }
            } else {
                found = verdict(flag: flagBytes, targetingKey: nil)
            }
            return found.map { outcome(of: $0, key: key) }
        }
    }

    /// What the flag whose key has these bytes says for the targeting key, without making the outcome's strings;
    /// nil when no flag has that key. A caller that keeps answers already encoded finds them by the verdict.
    ///
    /// With a targeting key, the targets table's filter is asked first, and when it cannot rule the pair out, the
    /// pair's first slot is read before the flag is found (see `FlagIndex.firstTargetSlot`): a flag whose state
    /// does not read targets then wastes that read, which is cheap next to the wait it saves a targeted-only one.
    ///
    /// Package-wide, not public: it reads the two byte ranges in place, and only this package's callers lend it
    /// memory they own for the call (the request's bytes, on the OFREP path).
    package func verdict(flag flagBytes: UnsafeRawBufferPointer, targetingKey keyBytes: UnsafeRawBufferPointer?) -> FlagVerdict? {
        let flagHash = KeyHash.hash(flagBytes)
        guard let keyBytes else {
            guard let slot = index.slot(of: flagBytes, hash: flagHash) else { return nil }
            return FlagVerdict(slot: slot, decision: decision(slot: slot, targetingKey: nil, pair: nil))
        }
        let keyHash = KeyHash.hash(keyBytes)
        let pairHash = KeyHash.pair(keyHash: keyHash, flagHash: flagHash)
        let first = index.mayBeTargeted(keyHash: keyHash, pairHash: pairHash)
            ? index.firstTargetSlot(keyHash: keyHash, pairHash: pairHash) : nil
        guard let slot = index.slot(of: flagBytes, hash: flagHash) else { return nil }
        return FlagVerdict(slot: slot, decision: decision(slot: slot, targetingKey: keyBytes, pair: (keyHash, pairHash, first)))
    }

    /// The outcome a verdict of this snapshot stands for; `key` is the flag's key, as the verdict was asked for it.
    public func outcome(of verdict: FlagVerdict, key: String) -> FlagOutcome {
        let record = index.record(at: verdict.slot)
        return FlagOutcome(key: key, revision: record.revision, state: record.state, decision: verdict.decision)
    }

    /// Every flag in key order; the targeting key is hashed once for all of them.
    public func evaluateAll(targetingKey: String?) -> [FlagOutcome] {
        guard let targetingKey else { return evaluateAll(targetingKey: nil, keyHash: 0) }
        return targetingKey.withUTF8Bytes { evaluateAll(targetingKey: $0, keyHash: KeyHash.hash($0)) }
    }

    /// Every flag's record is read in key order from the index's copy in that order (`RecordsInKeyOrder`), one after
    /// the other, not from a random slot of the flag table per flag; and the pairs of one targeting key, and the
    /// filter words that rule out its other pairs, lie in a few neighbouring shards (`FlagIndex.shard(keyHash:pairHash:)`),
    /// which stay in cache for the whole call. So what a flag reads comes in order or from cache at any size; what
    /// is left is each outcome's retain of its key String, wherever that lies (BENCHMARKS.md, part 12).
    private func evaluateAll(targetingKey: UnsafeRawBufferPointer?, keyHash: UInt64) -> [FlagOutcome] {
        var outcomes: [FlagOutcome] = []
        outcomes.reserveCapacity(orderedKeys.count)
        orderedKeys.withUnsafeBufferPointer { keys in
            index.recordsInKeyOrder.forEach { position, entry in
                // The decision as `decision(slot:…)` makes it, from the entry read in key order.
                let record = entry.record
                let decision = FlagDecision.make(
                    state: record.state, rolloutPercentage: Int(record.rolloutPercentage), hasTargetingKey: targetingKey != nil,
                    isTargeted: {
                        guard let targetingKey else { return false }
                        return index.isTargeted(flagSlot: Int(record.slot), key: targetingKey, keyHash: keyHash,
                                                pairHash: KeyHash.pair(keyHash: keyHash, flagHash: record.hash))
                    },
                    bucket: {
                        guard let targetingKey else { return 0 }
                        return record.bucketing.bucket(prefix: entry.bucketPrefix, targetingKey: targetingKey)
                    })
                outcomes.append(FlagOutcome(key: keys[position], revision: record.revision, state: record.state, decision: decision))
            }
        }
        return outcomes
    }

    /// - Parameter pair: the targeting key's and the pair's hashes and the pair's first target slot, read by the
    ///   caller (a nil slot: the filter ruled the pair out); nil without a targeting key.
    @inline(__always)
    private func decision(slot: Int, targetingKey: UnsafeRawBufferPointer?,
                          pair: (keyHash: UInt64, hash: UInt64, first: TargetShard.Slot?)?) -> FlagDecision {
        let record = index.record(at: slot)
        return FlagDecision.make(
            state: record.state, rolloutPercentage: Int(record.rolloutPercentage), hasTargetingKey: targetingKey != nil,
            isTargeted: {
                guard let targetingKey, let pair, let first = pair.first else { return false }
                return index.isTargeted(flagSlot: slot, key: targetingKey, keyHash: pair.keyHash, pairHash: pair.hash, first: first)
            },
            bucket: {
                guard let targetingKey else { return 0 }
                return index.flagKey(of: record) { record.bucketing.bucket(flagKey: $0, targetingKey: targetingKey) }
            })
    }

    /// A new snapshot with one rule replaced, added, or removed (nil). A changed rule keeps its slot and copies only
    /// the chunks of its record (in the table and in key order) and the targets shards its changed keys fall in; an
    /// added one takes a free slot, and its key one place in the order found by binary search; a removal, or an
    /// addition to a full table, builds the index anew.
    public func replacing(_ key: String, with rule: FlagRule?) -> EvaluationSnapshot {
        let old = rules[key]
        let nextRevision = max(revision, rule?.version ?? 0)
        var index = self.index
        switch (old, rule) {
        case (let old?, let rule?):
            index.update(slot: index.slot(of: key)!, position: insertionPosition(of: key), from: old, to: rule)
            return EvaluationSnapshot(orderedKeys: orderedKeys, index: index, generation: generation + 1, revision: nextRevision)
        case (nil, let rule?) where index.hasRoomForAnotherFlag:
            let position = insertionPosition(of: key)
            index.add(key: key, rule: rule, position: position)
            var keys = orderedKeys
            keys.insert(key, at: position)
            return EvaluationSnapshot(orderedKeys: keys, index: index, generation: generation + 1, revision: nextRevision)
        case (nil, nil):
            return EvaluationSnapshot(orderedKeys: orderedKeys, index: index, generation: generation + 1, revision: nextRevision)
        default:
            // A removal, or an addition to a full table: the index is built anew, in the order of the keys.
            var next = orderedKeys.compactMap { $0 == key ? nil : self.index.slot(of: $0).flatMap(self.index.rule(at:)) }
            if let rule { next.append(rule) }
            return EvaluationSnapshot(rules: next, generation: generation + 1, revision: nextRevision)
        }
    }

    /// The position of `key` in `orderedKeys`, or where it goes when it is not there (binary search).
    private func insertionPosition(of key: String) -> Int {
        var low = 0
        var high = orderedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if orderedKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
