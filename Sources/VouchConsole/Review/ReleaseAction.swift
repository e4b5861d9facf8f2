import VouchConsoleKit
import VouchDomain

/// The lifecycle actions a release manager takes from the console, each with the words of its confirmation page:
/// what happens, and to whom.
enum ReleaseAction: String, CaseIterable, Sendable {
    case pause
    case resume
    case rollback
    case promote
    case retryPromotion = "retry-promotion"

    var fixAction: FixAction {
        switch self {
        case .pause: .pause
        case .resume: .resume
        case .rollback: .rollback
        case .promote: .promote
        case .retryPromotion: .retryPromotion
        }
    }

    var linkKey: MessageKey {
        switch self {
        case .pause: .actionsPause
        case .resume: .actionsResume
        case .rollback: .actionsRollback
        case .promote: .actionsPromote
        case .retryPromotion: .actionsRetryPromotion
        }
    }

    func question(_ fix: Fix) -> String {
        switch self {
        case .pause: "Pause \(fix.title)?"
        case .resume: "Resume \(fix.title)?"
        case .rollback: "Roll back \(fix.title)?"
        case .promote: "Promote \(fix.title) to everyone?"
        case .retryPromotion: "Retry the promotion of \(fix.title)?"
        }
    }

    var buttonText: String {
        switch self {
        case .pause: "Pause the fix"
        case .resume: "Resume the fix"
        case .rollback: "Roll back the fix"
        case .promote: "Promote the fix"
        case .retryPromotion: "Retry the promotion"
        }
    }

    /// Red for what turns the fix off for people who have it.
    var buttonKind: Button.Kind { self == .pause || self == .rollback ? .warning : .primary }

    /// Promotion needs every criterion met, a valid approval among them; the API checks it again.
    var needsCriteria: Bool { self == .promote || self == .retryPromotion }

    /// The word in the fix page's address after the action, which chooses its success banner.
    var doneFlag: String {
        switch self {
        case .pause: "paused"
        case .resume: "resumed"
        case .rollback: "rolled-back"
        case .promote: "promoted"
        case .retryPromotion: "promotion-retried"
        }
    }

    var banner: MessageKey {
        switch self {
        case .pause: .bannerPaused
        case .resume: .bannerResumed
        case .rollback: .bannerRolledBack
        case .promote: .bannerPromoted
        case .retryPromotion: .bannerPromotionRetried
        }
    }

    /// What the action does to the fix's flag and to the people who use the app, in words.
    func effect(on fix: Fix) -> [String] {
        switch self {
        case .pause:
            var lines = ["The fix's flag goes off at once for everyone, including the testers, until someone resumes the fix.",
                         "Resuming returns it to where it is now: \(Words.state(fix.state).lowercased()).",
                         "Testers cannot send feedback on it while it is paused."]
            if fix.state == .released || fix.state == .releasing { lines.insert("People who use the app with the fix lose it now.", at: 1) }
            return lines
        case .resume:
            let target = fix.pausedFrom ?? .testing
            return ["The fix returns to \(Words.state(target).lowercased()): \(ReleaseAction.flagWords(target, fix: fix))."]
        case .rollback:
            return ["The fix's flag goes off at once for everyone, including the testers.",
                    "The fix can be tested again only as a new revision: starting it again makes revision \(fix.revision + 1), and the feedback and approvals of revision \(fix.revision) no longer count.",
                    "Your reason is kept in the audit log."]
        case .promote, .retryPromotion:
            let reach = fix.rollout.map { plan in
                "the fix's flag turns on in steps, for \(plan.steps.map(String.init).joined(separator: ", ")) percent of users, one step every \(CriteriaEvaluator.duration(plan.intervalSeconds))"
            } ?? "the fix's flag turns on for everyone"
            return [(self == .promote ? "Vouch sends the promotion to the webhook endpoints." : "Vouch sends the promotion to the webhook endpoints again.")
                    + " When every required endpoint accepts it, \(reach).",
                    "Until then the flag stays on only for the testers and the fix's direct targets."]
        }
    }

    /// Who has the flag in a state the fix can be paused from.
    static func flagWords(_ state: FixState, fix: Fix) -> String {
        switch state {
        case .released: "its flag is on again for everyone"
        case .releasing: "its flag is on again for the users in the current step (\(fix.rolloutPercentage ?? 0) percent), and the steps continue"
        case .promotionFailed: "its flag is on again for the testers and the fix's direct targets, and the promotion stays failed until it is retried or rolled back"
        default: "its flag is on again for the enrolled testers and the fix's direct targets, and off for everyone else"
        }
    }
}
