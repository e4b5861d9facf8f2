import Foundation
import VouchDomain

/// Invitations to join as a tester: created, listed, found by the SHA-256 of the secret, revoked
/// (docs/invitations.md).
public protocol InvitationStore: Sendable {
    /// Stores a new invitation; every fix and panel it names must exist.
    func createInvitation(_ invitation: Invitation, by requester: Requester) throws
    /// Every invitation, oldest first.
    func invitations() throws -> [Invitation]
    func invitation(id: String) throws -> Invitation?
    func invitation(secretSHA256: [UInt8]) throws -> Invitation?
    /// Counts a use of the invitation whose secret has this SHA-256, creates the tester `makeTester` builds from it
    /// (her consent given herself), enrolls her in the invitation's fixes, adds her to its panels, keeps the consent text
    /// she agreed to and gives her the personal link `makeLink` makes, in one transaction. Refused with
    /// `InvitationClosed` when the invitation no longer opens at `time`, however many accept at once.
    /// - Parameter notifying: the notifications by email to queue in the same transaction, given her and the fixes
    ///   she was enrolled in.
    func acceptInvitation(secretSHA256: [UInt8], at time: Date, consentText: AgreedConsentText?, makeTester: (Invitation) throws -> Tester,
                          makeLink: ((Tester) -> TesterLink)?, notifying: (Tester, [String]) throws -> [MailNotification]) throws -> InvitationAcceptance
    /// Revokes an invitation: its link opens nothing from then on.
    func revokeInvitation(_ id: String, by requester: Requester, at time: Date) throws -> Invitation
}

extension InvitationStore {
    /// Accepts without keeping a consent text, making a link or queueing mail.
    public func acceptInvitation(secretSHA256: [UInt8], at time: Date, makeTester: (Invitation) throws -> Tester) throws -> InvitationAcceptance {
        try acceptInvitation(secretSHA256: secretSHA256, at: time, consentText: nil, makeTester: makeTester, makeLink: nil, notifying: { _, _ in [] })
    }

    /// Accepts without queueing mail.
    public func acceptInvitation(secretSHA256: [UInt8], at time: Date, consentText: AgreedConsentText?, makeTester: (Invitation) throws -> Tester,
                                 makeLink: ((Tester) -> TesterLink)?) throws -> InvitationAcceptance {
        try acceptInvitation(secretSHA256: secretSHA256, at: time, consentText: consentText, makeTester: makeTester, makeLink: makeLink,
                             notifying: { _, _ in [] })
    }
}
