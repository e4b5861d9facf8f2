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

    func question(_ title: String) -> String {
        switch self {
        case .start: "Start testing \(title)?"
        case .revise: "Revise \(title)?"
        case .abandon: "Abandon \(title)?"
        }
    }

    var button: String {
        switch self {
        case .start: "Start testing"
        case .revise: "Revise fix"
        case .abandon: "Abandon fix"
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

    var refusal: String {
        switch self {
        case .start: "You cannot start testing this fix now"
        case .revise: "You cannot revise this fix now"
        case .abandon: "You cannot abandon this fix now"
        }
    }

    /// When the lifecycle allows it (docs/lifecycle.md, "Transitions"), in words.
    var rule: String {
        switch self {
        case .start: "Testing starts from a draft, or from a rolled-back fix with a new revision."
        case .revise: "A fix can be revised while it is a draft, in testing, after a failed promotion or after a rollback."
        case .abandon: "A fix can be abandoned only while it is a draft or in testing."
        }
    }
}
