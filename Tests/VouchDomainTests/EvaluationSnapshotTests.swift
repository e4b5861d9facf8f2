import Testing
import VouchDomain

@Suite struct EvaluationSnapshotTests {
    private let released = FlagRule(key: "menu-opacity-fix", state: .released, revision: 2)
    private let testing = FlagRule(key: "b-settings-labels", state: .testing, revision: 1, targetedKeys: ["tester-1"])
    private let draft = FlagRule(key: "a-draft", state: .draft, revision: 1)

    @Test func unknownFlagHasNoOutcome() {
        #expect(EvaluationSnapshot.empty.evaluate(flag: "nope", targetingKey: "k") == nil)
        #expect(EvaluationSnapshot.empty.evaluateAll(targetingKey: "k").isEmpty)
    }

    @Test func evaluatesOneFlag() throws {
        let snapshot = EvaluationSnapshot(rules: [testing.key: testing])
        let outcome = try #require(snapshot.evaluate(flag: testing.key, targetingKey: "tester-1"))
        #expect(outcome.value)
        #expect(outcome.reason == .targetingMatch)
    }

    @Test func bulkEvaluationIsInKeyOrder() {
        let snapshot = EvaluationSnapshot(rules: [released.key: released, testing.key: testing, draft.key: draft])
        #expect(snapshot.orderedKeys == ["a-draft", "b-settings-labels", "menu-opacity-fix"])
        let outcomes = snapshot.evaluateAll(targetingKey: "tester-1")
        #expect(outcomes.map(\.key) == ["a-draft", "b-settings-labels", "menu-opacity-fix"])
        #expect(outcomes.map(\.value) == [false, true, true])
    }

    @Test func replacingBuildsANewSnapshotAndLeavesTheOldOne() {
        let first = EvaluationSnapshot(rules: [draft.key: draft], generation: 4)
        var started = draft
        started.state = .released
        let second = first.replacing(draft.key, with: started)
        #expect(second.generation == 5)
        #expect(second.evaluate(flag: draft.key, targetingKey: nil)?.value == true)
        #expect(first.evaluate(flag: draft.key, targetingKey: nil)?.value == false)

        let third = second.replacing(released.key, with: released)
        #expect(third.orderedKeys == [draft.key, released.key])
        let fourth = third.replacing(draft.key, with: nil)
        #expect(fourth.orderedKeys == [released.key])
        #expect(fourth.evaluate(flag: draft.key, targetingKey: nil) == nil)
        #expect(fourth.generation == 7)
    }
}
