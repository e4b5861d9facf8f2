import Foundation

/// An invitation to join as a tester, as stored: never its secret, only the secret's SHA-256 (docs/invitations.md).
/// Nothing in it names the person invited: the name hint is the inviting maintainer's own note.
public struct Invitation: Sendable, Equatable {
    /// Where an invitation stands at a moment.
    public enum Status: String, Sendable {
        case active, expired, used, revoked
    }

    public var id: String
    public var secretSHA256: [UInt8]
    public var nameHint: String?
    /// Targeting keys bound in advance (the account of the person who reported the defect); she is asked for none.
    public var targetingKeys: [String]
    /// The fixes she is enrolled in when she accepts.
    public var fixKeys: [String]
    /// The panels she joins when she accepts.
    public var panelIDs: [String]
    /// The language the invitation's pages open in: `en` or `ja`.
    public var language: String
    public var usesAllowed: Int
    public var usesMade: Int
    public var createdBy: String
    public var createdAt: Date
    public var expiresAt: Date
    public var revokedAt: Date?
    public var revokedBy: String?

    public init(id: String, secretSHA256: [UInt8], nameHint: String?, targetingKeys: [String], fixKeys: [String], panelIDs: [String] = [],
                language: String, usesAllowed: Int, usesMade: Int = 0, createdBy: String, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil, revokedBy: String? = nil) {
        self.id = id
        self.secretSHA256 = secretSHA256
        self.nameHint = nameHint
        self.targetingKeys = targetingKeys
        self.fixKeys = fixKeys
        self.panelIDs = panelIDs
        self.language = language
        self.usesAllowed = usesAllowed
        self.usesMade = usesMade
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.revokedBy = revokedBy
    }

    /// Revoked first, then used up, then expired: the reason that would still hold if the others went away.
    public func status(at time: Date) -> Status {
        if revokedAt != nil { return .revoked }
        if usesMade >= usesAllowed { return .used }
        return time < expiresAt ? .active : .expired
    }

    /// Whether the link may still be followed to consent and join.
    public func opens(at time: Date) -> Bool { status(at: time) == .active }
}
