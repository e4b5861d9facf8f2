import Testing
import VouchDomain

/// The snapshot's rules split into buckets (RuleTable) answer as the one dictionary they replaced did, and a changed
/// copy leaves the table it came from as it was.
@Suite struct RuleTableTests {
    @Test func answersAsADictionaryThroughChangesAndLeavesItsOriginalAlone() {
        // 1,000 rules: 16 buckets, so keys fall in different ones.
        var reference = Dictionary(uniqueKeysWithValues: (0..<1_000).map { number in
            ("ios.settings.fix-\(number)", FlagRule(key: "ios.settings.fix-\(number)", state: .testing, revision: 1, targetedKeys: ["user-\(number)"]))
        })
        let original = RuleTable(reference)
        let before = reference
        var table = original
        #expect(table.count == 1_000)
        for step in 0..<300 {
            let key = "ios.settings.fix-\(step * 7 % 1_300)"
            let rule: FlagRule? = step % 5 == 0 ? nil : FlagRule(key: key, state: .released, revision: step, targetedKeys: [])
            table[key] = rule
            reference[key] = rule
            #expect(table[key] == reference[key])
            #expect(table.count == reference.count)
        }
        #expect(Set(table.keys) == Set(reference.keys))
        #expect(Dictionary(uniqueKeysWithValues: table.values.map { ($0.key, $0) }) == reference)
        #expect(table["ios.settings.unknown"] == nil)
        // The original is a value: none of the changes reached it.
        #expect(original.count == before.count)
        #expect(Dictionary(uniqueKeysWithValues: original.values.map { ($0.key, $0) }) == before)
    }

    @Test func anEmptyTableAndOneRule() {
        var table = RuleTable([:])
        #expect(table.count == 0)
        #expect(Array(table.values).isEmpty)
        table["a"] = nil
        #expect(table.count == 0)
        let rule = FlagRule(key: "a", state: .draft, revision: 1)
        table["a"] = rule
        table["a"] = rule
        #expect(table.count == 1)
        #expect(table["a"] == rule)
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
