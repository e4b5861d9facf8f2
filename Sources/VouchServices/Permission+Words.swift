import VouchDomain

extension Permission {
    /// What the permission lets a person do, without the roles: the console names the roles in words ("release manager").
    public var task: String {
        switch self {
        case .evaluateFlags: "evaluate flags"
        case .readFlagDefinitions: "read every flag's rules for flagd"
        case .readAll: "read fixes, testers and the audit log"
        case .editFixes: "create and change fixes"
        case .manageTesters: "manage testers and enrollments"
        case .decideRelease: "pause, resume, roll back and promote fixes"
        case .approve: "approve or reject fixes"
        case .manageTokens: "manage tokens"
        case .manageWebhooks: "manage webhooks"
        case .readEnrolledFixes: "read the fixes a tester is enrolled in"
        case .submitOwnFeedback: "submit feedback"
        }
    }

    /// Words for a refusal: the task and, where staff roles grant it, which roles do, by their API names.
    public var phrase: String {
        switch self {
        case .evaluateFlags, .readEnrolledFixes, .submitOwnFeedback: return task
        default:
            let roles = Role.allCases.filter { $0.allows(self) }.map(\.rawValue)
            return task + " (" + (roles.count == 1 ? roles[0] : roles.dropLast().joined(separator: ", ") + " or " + roles[roles.count - 1]) + ")"
        }
    }
}
