import Foundation

/// Her answers between agreeing to the consent text and joining, found by the SHA-256 of the cookie her browser
/// holds; kept an hour at most (docs/invitations.md, "Joining").
public struct JoinDraft: Sendable, Equatable {
    public var idSHA256: [UInt8]
    public var invitationID: String
    /// The form token of her pages: without a session, the draft is what a form must match.
    public var csrf: String
    /// The consent text she agreed to: its version and the language she read it in.
    public var consentVersion: String
    public var consentLanguage: String
    /// Her answers so far, as the pages encode them (JSON).
    public var answers: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(idSHA256: [UInt8], invitationID: String, csrf: String, consentVersion: String, consentLanguage: String, answers: String,
                createdAt: Date, expiresAt: Date) {
        self.idSHA256 = idSHA256
        self.invitationID = invitationID
        self.csrf = csrf
        self.consentVersion = consentVersion
        self.consentLanguage = consentLanguage
        self.answers = answers
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
