/// An immutable picture of every flag, read by OFREP without touching the database.
///
/// A change builds a new snapshot and swaps it in whole, so readers never see half an update. Evaluation reads the
/// flat `FlagIndex`, not `rules`: the table of `FlagRule`s is kept for writers (which compare versions and
/// compute what a changed rule adds and removes) and is never touched by a request.
public final class EvaluationSnapshot: Sendable {
    /// The rules by flag key; each is stored under its own `key`. Split into buckets, so a swap copies one.
    public let rules: RuleTable
    /// Keys in order, so bulk answers are stable and their ETags repeatable.
    public let orderedKeys: [String]
    /// Counts swaps, for metrics and logs.
    public let generation: UInt64
    /// The configuration revision the rules are at: the one they were loaded at, or the newest version swapped in
    /// since. It only grows, so a client that reads it from answers sees a node never go backwards.
    public let revision: Int64
    let index: FlagIndex
    /// The index slot of each of `orderedKeys`, for bulk evaluation.
    private let orderedSlots: [Int]

    /// - Parameter revision: the configuration revision the rules were read at; at least their newest version.
    public convenience init(rules: [String: FlagRule], generation: UInt64 = 0, revision: Int64 = 0) {
        let keys = rules.keys.sorted()
        let (index, slots) = FlagIndex.build(rules: rules, orderedKeys: keys)
        self.init(rules: RuleTable(rules), orderedKeys: keys, orderedSlots: slots, index: index, generation: generation,
                  revision: max(revision, rules.values.map(\.version).max() ?? 0))
    }

    private init(rules: RuleTable, orderedKeys: [String], orderedSlots: [Int], index: FlagIndex, generation: UInt64, revision: Int64) {
        self.rules = rules
        self.orderedKeys = orderedKeys
        self.orderedSlots = orderedSlots
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
        let pairHash = KeyHash.pair(keyHash: KeyHash.hash(keyBytes), flagHash: flagHash)
        let first = index.mayBeTargeted(pairHash: pairHash) ? index.firstTargetSlot(pairHash: pairHash) : nil
        guard let slot = index.slot(of: flagBytes, hash: flagHash) else { return nil }
        return FlagVerdict(slot: slot, decision: decision(slot: slot, targetingKey: keyBytes, pair: (pairHash, first)))
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

    /// Flags a bulk evaluation takes at a time (`evaluateAll`).
    private static let bulkBlock = 64

    /// What a bulk evaluation's first passes read about one flag of the block.
    private struct BulkEntry {
        var record: FlagRecord
        var pairHash: UInt64
        var mayBeTargeted: Bool
    }

    /// The flags are taken a block at a time, in passes: every record of the block is read, then, for those whose
    /// state reads targets, the targets filter of their pair; only then are the outcomes made. At a million fixes
    /// each of these reads is a miss (a random slot of the flag table, then one of 65,536 shards and its filter),
    /// and one flag's reads wait for each other; in passes, the block's reads of one kind do not, so they wait for
    /// memory together rather than one after the other (BENCHMARKS.md, part 12).
    private func evaluateAll(targetingKey: UnsafeRawBufferPointer?, keyHash: UInt64) -> [FlagOutcome] {
        let count = orderedKeys.count
        var outcomes: [FlagOutcome] = []
        outcomes.reserveCapacity(count)
        withUnsafeTemporaryAllocation(of: BulkEntry.self, capacity: Self.bulkBlock) { block in
            orderedSlots.withUnsafeBufferPointer { slots in
                var start = 0
                while start < count {
                    let end = min(start + Self.bulkBlock, count)
                    for position in start..<end {
                        block.initializeElement(at: position - start, to: BulkEntry(record: index.record(at: slots[position]), pairHash: 0,
                                                                                    mayBeTargeted: false))
                    }
                    if targetingKey != nil {
                        for offset in 0..<(end - start) where block[offset].record.state.readsTargets {
                            let pairHash = KeyHash.pair(keyHash: keyHash, flagHash: block[offset].record.hash)
                            block[offset].pairHash = pairHash
                            block[offset].mayBeTargeted = index.mayBeTargeted(pairHash: pairHash)
                        }
                    }
                    for position in start..<end {
                        let entry = block[position - start]
                        let slot = slots[position]
                        // The decision as `decision(slot:…)` makes it, from the entry the first passes read.
                        let decision = FlagDecision.make(
                            state: entry.record.state, rolloutPercentage: Int(entry.record.rolloutPercentage),
                            hasTargetingKey: targetingKey != nil,
                            isTargeted: {
                                guard let targetingKey, entry.mayBeTargeted else { return false }
                                return index.isTargeted(flagSlot: slot, key: targetingKey, pairHash: entry.pairHash)
                            },
                            bucket: {
                                guard let targetingKey else { return 0 }
                                return index.flagKey(of: entry.record) { entry.record.bucketing.bucket(flagKey: $0, targetingKey: targetingKey) }
                            })
                        outcomes.append(FlagOutcome(key: orderedKeys[position], revision: entry.record.revision,
                                                    state: entry.record.state, decision: decision))
                    }
                    start = end
                }
            }
        }
        return outcomes
    }

    /// - Parameter pair: the pair's hash and its first target slot, read by the caller (a nil slot: the filter ruled
    ///   the pair out); nil without a targeting key.
    @inline(__always)
    private func decision(slot: Int, targetingKey: UnsafeRawBufferPointer?, pair: (hash: UInt64, first: TargetShard.Slot?)?) -> FlagDecision {
        let record = index.record(at: slot)
        return FlagDecision.make(
            state: record.state, rolloutPercentage: Int(record.rolloutPercentage), hasTargetingKey: targetingKey != nil,
            isTargeted: {
                guard let targetingKey, let pair, let first = pair.first else { return false }
                return index.isTargeted(flagSlot: slot, key: targetingKey, pairHash: pair.hash, first: first)
            },
            bucket: {
                guard let targetingKey else { return 0 }
                return index.flagKey(of: record) { record.bucketing.bucket(flagKey: $0, targetingKey: targetingKey) }
            })
    }

    /// A new snapshot with one rule replaced, added, or removed (nil). A changed rule keeps its slot and copies only
    /// the targets shards its changed keys fall in; an added one takes a free slot, and its key one place in the
    /// order found by binary search; a removal, or an addition to a full table, builds the index anew.
    public func replacing(_ key: String, with rule: FlagRule?) -> EvaluationSnapshot {
        let old = rules[key]
        var next = rules
        next[key] = rule
        let nextRevision = max(revision, rule?.version ?? 0)
        var index = self.index
        switch (old, rule) {
        case (let old?, let rule?):
            index.update(slot: index.slot(of: key)!, from: old, to: rule)
            return EvaluationSnapshot(rules: next, orderedKeys: orderedKeys, orderedSlots: orderedSlots, index: index,
                                      generation: generation + 1, revision: nextRevision)
        case (nil, let rule?) where index.hasRoomForAnotherFlag:
            let slot = index.add(key: key, rule: rule)
            let position = insertionPosition(of: key)
            var keys = orderedKeys
            var slots = orderedSlots
            keys.insert(key, at: position)
            slots.insert(slot, at: position)
            return EvaluationSnapshot(rules: next, orderedKeys: keys, orderedSlots: slots, index: index,
                                      generation: generation + 1, revision: nextRevision)
        case (nil, nil):
            return EvaluationSnapshot(rules: next, orderedKeys: orderedKeys, orderedSlots: orderedSlots, index: index,
                                      generation: generation + 1, revision: nextRevision)
        default:
            return EvaluationSnapshot(rules: Dictionary(uniqueKeysWithValues: next.values.map { ($0.key, $0) }), generation: generation + 1,
                                      revision: nextRevision)
        }
    }

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
