/// What a token may do, from docs/contracts.md, "Tokens and roles".
public enum Role: String, Sendable, CaseIterable, Codable {
    case admin
    case releaseManager = "release_manager"
    case maintainer
    case tester
    case sdk

    public static let allowedList = allCases.map(\.rawValue).joined(separator: ", ")

    public func allows(_ permission: Permission) -> Bool {
        switch self {
        case .admin:
            return true
        case .releaseManager:
            switch permission {
            case .evaluateFlags, .readFlagDefinitions, .readAll, .decideRelease, .approve: return true
            case .editFixes, .manageTesters, .manageTokens, .manageWebhooks, .readEnrolledFixes, .submitOwnFeedback: return false
            }
        case .maintainer:
            switch permission {
            case .evaluateFlags, .readFlagDefinitions, .readAll, .editFixes, .manageTesters, .submitOwnFeedback: return true
            case .decideRelease, .approve, .manageTokens, .manageWebhooks, .readEnrolledFixes: return false
            }
        case .tester:
            return permission == .evaluateFlags || permission == .readEnrolledFixes || permission == .submitOwnFeedback
        case .sdk:
            return permission == .evaluateFlags || permission == .readFlagDefinitions
        }
    }
}

/// The capabilities routes ask for; roles grant them.
public enum Permission: String, Sendable, CaseIterable {
    /// OFREP evaluation; every role has it.
    case evaluateFlags
    /// Every fix's rules as flagd flag definitions (`/flagd/v1/flags.json`): they list every targeted key, so a
    /// tester, who may learn only their own answers, is refused.
    case readFlagDefinitions
    /// Read fixes, targets, testers, feedback, audit.
    case readAll
    /// Create and edit fixes, start, revise, abandon, targets.
    case editFixes
    /// Testers and enrollments.
    case manageTesters
    /// Pause, resume, rollback, promote, retry-promotion.
    case decideRelease
    /// Approve or reject a fix.
    case approve
    case manageTokens
    case manageWebhooks
    /// A tester reading the fixes they are enrolled in.
    case readEnrolledFixes
    /// Feedback as oneself (tester) or on a tester's behalf (maintainer).
    case submitOwnFeedback
}

extension FixAction {
    /// The permission a person needs to ask for this action.
    public var requiredPermission: Permission {
        switch self {
        case .start, .revise, .abandon: .editFixes
        default: .decideRelease
        }
    }
}
