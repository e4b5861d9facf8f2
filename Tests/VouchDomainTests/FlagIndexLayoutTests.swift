import Testing
@testable import VouchDomain

/// The flag table in chunks and the shards in groups (`FlagIndex`): lookups across chunk boundaries, swaps that
/// change, add and remove a fix in the first, a middle and the last chunk, and many swaps in a row, each compared
/// with a snapshot freshly built from the same rules and with the straightforward reference evaluation.
@Suite struct FlagIndexLayoutTests {
    typealias Reference = EvaluationSnapshotReferenceTests

    /// 3,000 fixes: a table of 4,096 slots in four chunks; about 30,000 pairs (fixes in a state that reads targets),
    /// 128 shards in 8 groups of 16.
    static func rules(_ random: inout Reference.SplitMix64) -> (rules: [String: FlagRule], pool: [String]) {
        let pool = Reference.keyPool(&random, count: 3_000, prefix: "tester")
        var rules: [String: FlagRule] = [:]
        var number = 0
        while rules.count < 3_000 {
            let key = "layout.fix-\(number)"
            rules[key] = Reference.randomRule(key: key, targets: pool, &random)
            number += 1
        }
        return (rules, pool)
    }

    /// Every flag of `rules` (and unknown ones), for every key of `keys`, single and bulk: the same outcome from
    /// `snapshot` as from a snapshot built afresh from `rules`.
    static func expectSameAsFresh(_ snapshot: EvaluationSnapshot, _ rules: [String: FlagRule], keys: [String?],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let fresh = EvaluationSnapshot(rules: rules)
        #expect(snapshot.orderedKeys == fresh.orderedKeys, sourceLocation: sourceLocation)
        for flag in rules.keys.sorted() + ["layout.unknown", "layout.fix-"] {
            for key in keys where snapshot.evaluate(flag: flag, targetingKey: key) != fresh.evaluate(flag: flag, targetingKey: key) {
                Issue.record("flag '\(flag)', targeting key \(key ?? "none"): \(String(describing: snapshot.evaluate(flag: flag, targetingKey: key))), a fresh snapshot says \(String(describing: fresh.evaluate(flag: flag, targetingKey: key)))",
                             sourceLocation: sourceLocation)
                return
            }
        }
        for key in keys.prefix(5) {
            #expect(snapshot.evaluateAll(targetingKey: key) == fresh.evaluateAll(targetingKey: key), sourceLocation: sourceLocation)
        }
    }

    /// The flag keys of `rules` whose slot is in `chunk`.
    static func keys(in chunk: Int, of snapshot: EvaluationSnapshot) -> [String] {
        snapshot.orderedKeys.filter { snapshot.index.slot(of: $0)! / FlagIndex.recordsPerChunk == chunk }
    }

    /// Keys targeted by the rule, and some targeted by others, and none: what a swap's comparison asks about.
    static func keys(around rule: FlagRule?, pool: [String]) -> [String?] {
        let targeted: [String?] = rule.map { Array($0.targetedKeys.prefix(10)) } ?? []
        let others: [String?] = Array(pool.prefix(25))
        return targeted + others + [nil, "layout-untargeted"]
    }

    @Test func theTablesAreSplitAndProbesRunAcrossChunkBoundaries() {
        var random = Reference.SplitMix64(seed: 36)
        let (rules, pool) = Self.rules(&random)
        let snapshot = EvaluationSnapshot(rules: rules)
        let index = snapshot.index
        #expect(index.slotCapacity == 4_096)
        #expect(index.chunkCount == 4)
        #expect(index.shardCount == 128)
        #expect(index.shardGroupCount == 8)
        // Flags whose probe started in one chunk and ended in the next (or wrapped from the last slot to the first):
        // found through the chunk list as through one array.
        let crossing = rules.keys.filter { key in
            let home = key.withUTF8Bytes { Int(truncatingIfNeeded: KeyHash.hash($0)) } & (index.slotCapacity - 1)
            return home / FlagIndex.recordsPerChunk != index.slot(of: key)! / FlagIndex.recordsPerChunk
        }
        #expect(!crossing.isEmpty)
        Reference.expectSameAsReference(snapshot, rules, flags: crossing + Self.keys(in: 0, of: snapshot).prefix(50), keys: pool.prefix(60).map(Optional.some) + [nil])
    }

    @Test func aTableSmallerThanAChunkIsOneChunk() {
        let snapshot = EvaluationSnapshot(rules: ["a": FlagRule(key: "a", state: .testing, revision: 1, targetedKeys: ["u"])])
        #expect(snapshot.index.slotCapacity == 8)
        #expect(snapshot.index.chunkCount == 1)
        #expect(snapshot.index.shardGroupCount == 1)
        #expect(snapshot.evaluate(flag: "a", targetingKey: "u")?.value == true)
        #expect(EvaluationSnapshot.empty.index.chunkCount == 1)
    }

    /// In the first, a middle and the last chunk: a fix's targets and state changed, a fix removed, and a fix added
    /// whose slot is in that chunk. After each swap the snapshot answers as a fresh one, and the one it came from as
    /// it did before.
    @Test(arguments: [0, 2, 3]) func swapsInOneChunkAnswerAsAFreshSnapshot(chunk: Int) {
        var random = Reference.SplitMix64(seed: 360 + UInt64(chunk))
        let generated = Self.rules(&random)
        var rules = generated.rules
        let pool = generated.pool
        let original = EvaluationSnapshot(rules: rules)
        let originalRules = rules
        var snapshot = original
        let inChunk = Self.keys(in: chunk, of: snapshot)
        #expect(inChunk.count > 100)

        // A fix gains a target, another loses one and changes state, both in this chunk.
        var gaining = rules[inChunk[0]]!
        gaining.state = .testing
        gaining.targetedKeys.insert("layout-new-tester")
        var losing = rules[inChunk.last!]!
        losing.targetedKeys.remove(losing.targetedKeys.first ?? "")
        losing.targetedKeys.insert(pool[7])
        losing.state = .releasing
        losing.rolloutPercentage = 42
        for rule in [gaining, losing] {
            snapshot = snapshot.replacing(rule.key, with: rule)
            rules[rule.key] = rule
            Self.expectSameAsFresh(snapshot, rules, keys: Self.keys(around: rule, pool: pool) + ["layout-new-tester"])
        }

        // A fix added whose slot lands in this chunk (the table has room: 3,000 of 3,072).
        let added = (0...).lazy.map { "layout.added-\(chunk)-\($0)" }.first { key in
            let home = key.withUTF8Bytes { Int(truncatingIfNeeded: KeyHash.hash($0)) } & 4_095
            return home / FlagIndex.recordsPerChunk == chunk && home % FlagIndex.recordsPerChunk < 900
        }!
        let addedRule = FlagRule(key: added, state: .testing, revision: 1, targetedKeys: [pool[1], "layout-only-added"])
        snapshot = snapshot.replacing(added, with: addedRule)
        rules[added] = addedRule
        #expect(snapshot.index.slotCapacity == 4_096)
        #expect(snapshot.index.slot(of: added)! / FlagIndex.recordsPerChunk == chunk)
        Self.expectSameAsFresh(snapshot, rules, keys: Self.keys(around: addedRule, pool: pool) + ["layout-only-added"])

        // A fix removed (the index is built anew).
        snapshot = snapshot.replacing(inChunk[1], with: nil)
        rules[inChunk[1]] = nil
        Self.expectSameAsFresh(snapshot, rules, keys: Self.keys(around: originalRules[inChunk[1]], pool: pool))

        Self.expectSameAsFresh(original, originalRules, keys: Self.keys(around: gaining, pool: pool) + ["layout-new-tester"])
    }

    /// 1,500 swaps of fixes drawn from the whole table, targets added and removed: every flag, looked up with many
    /// keys, answers as in a freshly built snapshot.
    @Test func manySwapsAnswerAsAFreshSnapshot() {
        var random = Reference.SplitMix64(seed: 3_636)
        let generated = Self.rules(&random)
        var rules = generated.rules
        let pool = generated.pool
        var snapshot = EvaluationSnapshot(rules: rules)
        let keys = rules.keys.sorted()
        for step in 0..<1_500 {
            var rule = rules[keys[Int(random.next() % UInt64(keys.count))]]!
            switch step % 3 {
            case 0: rule.targetedKeys.insert(pool[Int(random.next() % UInt64(pool.count))])
            case 1: if let any = rule.targetedKeys.first { rule.targetedKeys.remove(any) }
            default: rule.state = [.testing, .releasing, .released, .paused][Int(random.next() % 4)]
            }
            rule.revision += 1
            snapshot = snapshot.replacing(rule.key, with: rule)
            rules[rule.key] = rule
        }
        Self.expectSameAsFresh(snapshot, rules, keys: pool.prefix(40).map(Optional.some) + [nil, "layout-untargeted"])
    }
}
