import Testing
import VouchDomain

/// The snapshot's rules (RuleTable, kept in the index beside the records) answer as a dictionary of the same rules
/// would, through changes, additions and removals, and a swapped snapshot leaves the rules of the one it came from as
/// they were.
@Suite struct RuleTableTests {
    @Test func answersAsADictionaryThroughChangesAndLeavesItsOriginalAlone() {
        // 1,000 rules: a table of 2,048 slots in two chunks, and additions that outgrow it.
        var reference = Dictionary(uniqueKeysWithValues: (0..<1_000).map { number in
            ("ios.settings.fix-\(number)", FlagRule(key: "ios.settings.fix-\(number)", state: .testing, revision: 1, targetedKeys: ["user-\(number)"]))
        })
        let original = EvaluationSnapshot(rules: reference)
        let before = reference
        var snapshot = original
        #expect(snapshot.rules.count == 1_000)
        for step in 0..<300 {
            let key = "ios.settings.fix-\(step * 7 % 1_300)"
            let rule: FlagRule? = step % 5 == 0 ? nil : FlagRule(key: key, state: .released, revision: step, targetedKeys: [])
            snapshot = snapshot.replacing(key, with: rule)
            reference[key] = rule
            #expect(snapshot.rules[key] == reference[key])
            #expect(snapshot.rules.count == reference.count)
        }
        #expect(Set(snapshot.rules.keys) == Set(reference.keys))
        #expect(Dictionary(uniqueKeysWithValues: snapshot.rules.values.map { ($0.key, $0) }) == reference)
        #expect(snapshot.rules["ios.settings.unknown"] == nil)
        // The original is immutable: none of the changes reached it.
        #expect(original.rules.count == before.count)
        #expect(Dictionary(uniqueKeysWithValues: original.rules.values.map { ($0.key, $0) }) == before)
    }

    @Test func anEmptyTableAndOneRule() {
        var snapshot = EvaluationSnapshot.empty
        #expect(snapshot.rules.count == 0)
        #expect(Array(snapshot.rules.values).isEmpty)
        #expect(snapshot.rules["a"] == nil)
        snapshot = snapshot.replacing("a", with: nil)
        #expect(snapshot.rules.count == 0)
        let rule = FlagRule(key: "a", state: .draft, revision: 1)
        snapshot = snapshot.replacing("a", with: rule).replacing("a", with: rule)
        #expect(snapshot.rules.count == 1)
        #expect(snapshot.rules["a"] == rule)
    }

    @Test func theSnapshotKeepsItsRulesThroughSwaps() {
        let rules = Dictionary(uniqueKeysWithValues: (0..<200).map { ("web.search.fix-\($0)", FlagRule(key: "web.search.fix-\($0)", state: .draft, revision: 1)) })
        var snapshot = EvaluationSnapshot(rules: rules)
        var released = rules["web.search.fix-7"]!
        released.state = .released
        snapshot = snapshot.replacing(released.key, with: released)
        snapshot = snapshot.replacing("web.search.fix-8", with: nil)
        #expect(snapshot.rules.count == 199)
        #expect(snapshot.rules["web.search.fix-7"] == released)
        #expect(snapshot.rules["web.search.fix-8"] == nil)
        #expect(snapshot.evaluate(flag: "web.search.fix-7", targetingKey: nil)?.value == true)
    }
}
