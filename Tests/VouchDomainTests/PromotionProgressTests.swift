import Foundation
import Testing
import VouchDomain

/// What the status report says of a promotion in each state: nothing while testing, where the criteria decide; in every
/// other state, what happened, so a released fix never reads "ready to promote: no" with nothing missing.
struct PromotionProgressTests {
    static func fix(_ state: FixState, pausedFrom: FixState? = nil, percentage: Int? = nil) throws -> Fix {
        Fix(key: try FixKey(validating: "tv-channel-selector-labels"), title: "T", uiArea: "TV channel selector", platforms: [.ios], author: "maria",
            state: state, pausedFrom: pausedFrom, rolloutPercentage: percentage, createdAt: Date(), updatedAt: Date())
    }

    @Test(arguments: [
        (FixState.draft, nil as FixState?, nil as Int?, "not started: the fix is a draft and must be started before it can be promoted" as String?),
        (.testing, nil, nil, nil),
        (.promoting, nil, nil, "waiting for the required webhooks to accept the promotion"),
        (.promotionFailed, nil, nil, "failed: a required webhook delivery was not accepted"),
        (.releasing, nil, 10, "releasing in phases, now to 10 percent of users"),
        (.released, nil, nil, "released to everyone"),
        (.paused, .releasing, 20, "paused during its phased release: the flag is off for everyone until the fix is resumed"),
        (.paused, .promotionFailed, nil, "paused after a failed promotion: the flag is off for everyone until the fix is resumed"),
        (.rolledBack, nil, nil, "rolled back: the flag is off for everyone until the fix is started again, as a new revision"),
        (.abandoned, nil, nil, "abandoned: the fix will not be promoted"),
    ])
    func summary(_ state: FixState, _ pausedFrom: FixState?, _ percentage: Int?, _ expected: String?) throws {
        #expect(PromotionProgress.summary(of: try Self.fix(state, pausedFrom: pausedFrom, percentage: percentage)) == expected)
    }

    @Test func everyStateButTestingSaysSomething() throws {
        for state in FixState.allCases {
            #expect((PromotionProgress.summary(of: try Self.fix(state)) == nil) == (state == .testing), "\(state)")
        }
    }
}
