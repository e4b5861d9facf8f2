import Foundation

/// Invitations to join as a tester: created, listed, found by the SHA-256 of the secret, revoked
/// (docs/invitations.md).
public protocol InvitationStore: Sendable {
    /// Stores a new invitation; every fix it names must exist.
    func createInvitation(_ invitation: Invitation, by requester: Requester) throws
    /// Every invitation, oldest first.
    func invitations() throws -> [Invitation]
    func invitation(id: String) throws -> Invitation?
    func invitation(secretSHA256: [UInt8]) throws -> Invitation?
    /// Revokes an invitation: its link opens nothing from then on.
    func revokeInvitation(_ id: String, by requester: Requester, at time: Date) throws -> Invitation
}
