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

    /// The confirmation page's question, which takes `{title}`.
    var question: MessageKey {
        switch self {
        case .pause: .releasePauseQuestion
        case .resume: .releaseResumeQuestion
        case .rollback: .releaseRollbackQuestion
        case .promote: .releasePromoteQuestion
        case .retryPromotion: .releaseRetryQuestion
        }
    }

    var buttonText: MessageKey {
        switch self {
        case .pause: .releasePauseButton
        case .resume: .releaseResumeButton
        case .rollback: .releaseRollbackButton
        case .promote: .releasePromoteButton
        case .retryPromotion: .releaseRetryButton
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
    func effect(on fix: Fix, _ messages: Messages) -> [String] {
        switch self {
        case .pause:
            var lines = [messages[.releasePauseOff], messages(.releasePauseReturns, ["state": messages.state(fix.state).lowercased()]),
                         messages[.releasePauseNoFeedback]]
            if fix.state == .released || fix.state == .releasing { lines.insert(messages[.releasePauseLoses], at: 1) }
            return lines
        case .resume:
            let target = fix.pausedFrom ?? .testing
            return [messages(.releaseResumeReturns, ["state": messages.state(target).lowercased(), "flag": ReleaseAction.flagWords(target, fix: fix, messages)])]
        case .rollback:
            return [messages[.releaseRollbackOff],
                    messages(.releaseRollbackRevision, ["next": messages.number(fix.revision + 1), "revision": messages.number(fix.revision)]),
                    messages[.releaseRollbackAudit]]
        case .promote, .retryPromotion:
            let reach = fix.rollout.map { plan in
                messages(.releaseReachSteps, ["steps": messages.list(plan.steps.map(String.init)), "interval": messages.duration(plan.intervalSeconds)])
            } ?? messages[.releaseReachEveryone]
            return [messages(self == .promote ? .releasePromoteSends : .releaseRetrySends, ["reach": reach]), messages[.releaseUntilThen]]
        }
    }

    /// Who has the flag in a state the fix can be paused from.
    static func flagWords(_ state: FixState, fix: Fix, _ messages: Messages) -> String {
        switch state {
        case .released: messages[.releaseFlagReleased]
        case .releasing: messages(.releaseFlagReleasing, ["percentage": messages.number(fix.rolloutPercentage ?? 0)])
        case .promotionFailed: messages[.releaseFlagPromotionFailed]
        default: messages[.releaseFlagTesting]
        }
    }
}
