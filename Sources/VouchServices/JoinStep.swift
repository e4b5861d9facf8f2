import VouchStore

/// The question pages of joining, in the order she meets them (docs/invitations.md, "Joining").
public enum JoinStep: String, Sendable, CaseIterable {
    case name
    case email
    case technologies = "assistive-technology"
    case testerCode = "tester-code"
    case language
    case check

    /// The steps of an invitation: no tester code when it bound her keys in advance.
    public static func steps(for invitation: Invitation) -> [JoinStep] {
        allCases.filter { $0 != .testerCode || invitation.targetingKeys.isEmpty }
    }
}
