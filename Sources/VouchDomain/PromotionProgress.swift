/// What became of a fix's way to everyone once its criteria no longer decide it, in words for the status report
/// (docs/lifecycle.md, "States and flag values"). While the fix is in testing the criteria and approvals say it instead.
public enum PromotionProgress {
    /// "released to everyone", "failed: a required webhook delivery was not accepted", …; nil while the fix is in testing.
    public static func summary(of fix: Fix) -> String? {
        switch fix.state {
        case .draft: "not started: the fix is a draft and must be started before it can be promoted"
        case .testing: nil
        case .promoting: "waiting for the required webhooks to accept the promotion"
        case .promotionFailed: "failed: a required webhook delivery was not accepted"
        case .releasing: "releasing in phases, now to \(fix.rolloutPercentage ?? 0) percent of users"
        case .released: "released to everyone"
        case .paused: "paused \(pausedWhen(fix.pausedFrom)): the flag is off for everyone until the fix is resumed"
        case .rolledBack: "rolled back: the flag is off for everyone until the fix is started again, as a new revision"
        case .abandoned: "abandoned: the fix will not be promoted"
        }
    }

    private static func pausedWhen(_ state: FixState?) -> String {
        switch state {
        case .promoting: "while being promoted"
        case .promotionFailed: "after a failed promotion"
        case .releasing: "during its phased release"
        case .released: "after its release"
        default: "in testing"
        }
    }
}
