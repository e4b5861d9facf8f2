import VouchConsoleKit
import VouchDomain

/// The lifecycle actions a maintainer takes from the console, with the words their pages use.
enum MaintainerAction: String, CaseIterable, Sendable {
    case start
    case revise
    case abandon

    var fixAction: FixAction {
        switch self {
        case .start: .start
        case .revise: .revise
        case .abandon: .abandon
        }
    }

    /// Whether the lifecycle allows the action now.
    func isAllowed(for fix: Fix) -> Bool {
        Lifecycle.allowedActions(from: fix.state, pausedFrom: fix.pausedFrom).contains(fixAction)
    }

    /// The confirmation page's question, which takes `{title}`.
    var question: MessageKey {
        switch self {
        case .start: .maintainerStartQuestion
        case .revise: .maintainerReviseQuestion
        case .abandon: .maintainerAbandonQuestion
        }
    }

    var button: MessageKey {
        switch self {
        case .start: .maintainerStartButton
        case .revise: .maintainerReviseButton
        case .abandon: .maintainerAbandonButton
        }
    }

    /// The fix page's `done` flag, which chooses its success banner.
    var done: String {
        switch self {
        case .start: "started"
        case .revise: "revised"
        case .abandon: "abandoned"
        }
    }

    /// The fix page's success banner after the action.
    var banner: MessageKey {
        switch self {
        case .start: .bannerStarted
        case .revise: .bannerRevised
        case .abandon: .bannerAbandoned
        }
    }

    var refusal: MessageKey {
        switch self {
        case .start: .maintainerStartRefusal
        case .revise: .maintainerReviseRefusal
        case .abandon: .maintainerAbandonRefusal
        }
    }

    /// When the lifecycle allows it (docs/lifecycle.md, "Transitions"), in words.
    var rule: MessageKey {
        switch self {
        case .start: .maintainerStartRule
        case .revise: .maintainerReviseRule
        case .abandon: .maintainerAbandonRule
        }
    }
}
