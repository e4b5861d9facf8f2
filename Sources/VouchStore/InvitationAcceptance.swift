import VouchDomain

/// What accepting an invitation made: the tester who joined, the invitation with this use counted, and the fixes
/// she was enrolled in (those of the invitation's fixes that still exist).
public struct InvitationAcceptance: Sendable, Equatable {
    public var tester: Tester
    public var invitation: Invitation
    public var enrolledFixes: [String]

    public init(tester: Tester, invitation: Invitation, enrolledFixes: [String]) {
        self.tester = tester
        self.invitation = invitation
        self.enrolledFixes = enrolledFixes
    }
}
