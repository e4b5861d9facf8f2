import VouchDomain

/// What accepting an invitation made: the tester who joined, the invitation with this use counted, and the fixes
/// she was enrolled in and the panels she joined (those of the invitation's that still exist), and the personal link she was given.
public struct InvitationAcceptance: Sendable, Equatable {
    public var tester: Tester
    public var invitation: Invitation
    public var enrolledFixes: [String]
    public var joinedPanels: [String]
    public var link: TesterLink?

    public init(tester: Tester, invitation: Invitation, enrolledFixes: [String], joinedPanels: [String] = [], link: TesterLink? = nil) {
        self.tester = tester
        self.invitation = invitation
        self.enrolledFixes = enrolledFixes
        self.joinedPanels = joinedPanels
        self.link = link
    }
}
