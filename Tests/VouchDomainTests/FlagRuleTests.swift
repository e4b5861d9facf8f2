import Testing
import VouchDomain

@Suite struct FlagRuleTests {
    /// This key's bucket for this flag is 6 by flagd's bucketing (Fixtures/flagd-bucketing-vectors.tsv) and 30 by
    /// Unleash's (Fixtures/bucketing-vectors.tsv).
    private static let phasedKey = "tv-channel-selector-labels"
    private static let bucketSixUser = "user-1"
    private static let tester = "tester-device-1"

    private func rule(_ state: FixState, revision: Int = 3, percentage: Int = 0) -> FlagRule {
        FlagRule(key: Self.phasedKey, state: state, revision: revision, targetedKeys: [Self.tester], rolloutPercentage: percentage)
    }

    @Test(arguments: [FixState.draft, .paused, .rolledBack, .abandoned], [nil, tester, "someone-else"])
    func offForAllIsDisabled(state: FixState, targetingKey: String?) {
        let outcome = rule(state, percentage: 100).evaluate(targetingKey: targetingKey)
        #expect(outcome.value == false)
        #expect(outcome.reason?.rawValue == "DISABLED")
        #expect(outcome.failure == nil)
        #expect(outcome.variant == "off")
    }

    @Test(arguments: [nil, tester, "someone-else"])
    func releasedIsStatic(targetingKey: String?) {
        let outcome = rule(.released).evaluate(targetingKey: targetingKey)
        #expect(outcome.value == true)
        #expect(outcome.reason?.rawValue == "STATIC")
        #expect(outcome.failure == nil)
        #expect(outcome.variant == "on")
    }

    @Test(arguments: [FixState.testing, .promoting, .promotionFailed, .releasing])
    func targetedKeyMatches(state: FixState) {
        let outcome = rule(state, percentage: 0).evaluate(targetingKey: Self.tester)
        #expect(outcome.value == true)
        #expect(outcome.reason?.rawValue == "TARGETING_MATCH")
        #expect(outcome.variant == "on")
    }

    @Test(arguments: [FixState.testing, .promoting, .promotionFailed])
    func untargetedKeyGetsDefaultOff(state: FixState) {
        let outcome = rule(state, percentage: 100).evaluate(targetingKey: "someone-else")
        #expect(outcome.value == false)
        #expect(outcome.reason?.rawValue == "DEFAULT")
        #expect(outcome.variant == "off")
    }

    @Test(arguments: [FixState.testing, .promoting, .promotionFailed, .releasing])
    func missingTargetingKeyFails(state: FixState) {
        let outcome = rule(state, percentage: 50).evaluate(targetingKey: nil)
        #expect(outcome.failure?.rawValue == "TARGETING_KEY_MISSING")
        #expect(outcome.failure?.details.contains("targetingKey") == true)
        #expect(outcome.reason == nil)
        #expect(outcome.value == false)
        #expect(outcome.variant == "off")
        #expect(outcome.state == state)
    }

    @Test(arguments: [(6, true), (7, true), (100, true), (5, false), (1, false), (0, false)])
    func releasingSplitsByBucket(percentage: Int, expectedOn: Bool) {
        let outcome = rule(.releasing, percentage: percentage).evaluate(targetingKey: Self.bucketSixUser)
        #expect(outcome.reason?.rawValue == "SPLIT")
        #expect(outcome.value == expectedOn)
        #expect(outcome.variant == (expectedOn ? "on" : "off"))
    }

    /// A rollout begun before the flagd bridge keeps Unleash's buckets.
    @Test(arguments: [(30, true), (31, true), (29, false), (6, false)])
    func unleashRolloutSplitsByItsOwnBucket(percentage: Int, expectedOn: Bool) {
        var rule = rule(.releasing, percentage: percentage)
        rule.bucketing = .unleash
        #expect(rule.evaluate(targetingKey: Self.bucketSixUser).value == expectedOn)
    }

    @Test(arguments: FixState.allCases)
    func outcomeCarriesKeyRevisionAndState(state: FixState) {
        let outcome = rule(state, revision: 7, percentage: 50).evaluate(targetingKey: Self.tester)
        #expect(outcome.key == Self.phasedKey)
        #expect(outcome.revision == 7)
        #expect(outcome.state == state)
    }
}
