import Testing
import VouchDomain

/// A snapshot made from rules as a store reads them (an array, in any order) answers as one made from the same
/// rules by key, and as the reference evaluation; of two rules under one key the later one counts.
@Suite struct SnapshotFromLoadedRulesTests {
    @Test func rulesInAnyOrderMakeTheSameSnapshot() {
        var random = EvaluationSnapshotReferenceTests.SplitMix64(seed: 36)
        let pool = EvaluationSnapshotReferenceTests.keyPool(&random, count: 200, prefix: "user")
        let flagKeys = EvaluationSnapshotReferenceTests.keyPool(&random, count: 300, prefix: "fix")
        let rules = flagKeys.map { EvaluationSnapshotReferenceTests.randomRule(key: $0, targets: pool, &random) }
        let byKey = Dictionary(uniqueKeysWithValues: rules.map { ($0.key, $0) })
        let keys: [String?] = Array(pool.prefix(60)) + [nil, "unknown"]
        for arrangement in [rules, rules.reversed(), rules.sorted { $0.key < $1.key }, rules.shuffled(using: &random)] {
            let snapshot = EvaluationSnapshot(rules: Array(arrangement))
            #expect(snapshot.orderedKeys == flagKeys.sorted())
            #expect(snapshot.rules.count == rules.count)
            #expect(snapshot.revision == rules.map(\.version).max())
            EvaluationSnapshotReferenceTests.expectSameAsReference(snapshot, byKey, flags: flagKeys + ["nope"], keys: keys)
            #expect(snapshot.evaluateAll(targetingKey: pool[0]) == EvaluationSnapshot(rules: byKey).evaluateAll(targetingKey: pool[0]))
        }
    }

    @Test func theLaterOfTwoRulesUnderOneKeyCounts() {
        let first = FlagRule(key: "web.search.fix-1", state: .testing, revision: 1, targetedKeys: ["ana"])
        let later = FlagRule(key: "web.search.fix-1", state: .released, revision: 2)
        let other = FlagRule(key: "web.search.fix-0", state: .testing, revision: 1, targetedKeys: ["ben"])
        let snapshot = EvaluationSnapshot(rules: [first, other, later])
        #expect(snapshot.orderedKeys == ["web.search.fix-0", "web.search.fix-1"])
        #expect(snapshot.rules.count == 2)
        #expect(snapshot.rules["web.search.fix-1"] == later)
        #expect(snapshot.evaluate(flag: "web.search.fix-1", targetingKey: "ana")?.revision == 2)
        #expect(snapshot.evaluate(flag: "web.search.fix-1", targetingKey: "ana")?.value == true)
        #expect(snapshot.evaluateAll(targetingKey: "ben").map(\.key) == ["web.search.fix-0", "web.search.fix-1"])
        // Only the later rule's targets are in the index: the earlier rule's key is not targeted any more.
        let testing = FlagRule(key: "web.search.fix-1", state: .testing, revision: 3)
        #expect(EvaluationSnapshot(rules: [first, testing]).evaluate(flag: "web.search.fix-1", targetingKey: "ana")?.value == false)
    }
}
