import Foundation

/// An API token as stored: never the secret, only its SHA-256.
public struct TokenRecord: Sendable, Equatable {
    public var id: String
    /// What the token is for ("ci", "Rita's laptop"): a label, never an identity.
    public var name: String
    /// Who holds it: a normalised principal name, or a tester's pseudonym for a tester token. Four-eyes compares these.
    public var principalName: String
    public var role: Role
    public var testerID: String?
    public var secretSHA256: [UInt8]
    public var createdBy: String
    public var createdAt: Date
    public var revokedAt: Date?
    /// A staff principal's address for notifications by email (docs/notifications.md); never a tester's.
    public var email: String?
    /// Whether OFREP bulk answers to this token offer push (`eventStreams`). An app whose provider refuses a member
    /// it does not know (the Kotlin OFREP provider 0.1) gets a token without (docs/contracts.md, "Push per token").
    public var eventStreams: Bool
    /// Whether this sdk token may read every flag definition (`/flagd/v1/flags.json`), which lists every targeted key:
    /// only a token made for a flagd has it, never one built into an app (docs/flagd.md, "Tokens for flagd").
    public var flagDefinitions: Bool

    public init(id: String, name: String, principalName: String, role: Role, testerID: String? = nil, secretSHA256: [UInt8], createdBy: String,
                createdAt: Date, revokedAt: Date? = nil, email: String? = nil, eventStreams: Bool = true,
                flagDefinitions: Bool = false) {
        self.eventStreams = eventStreams
        self.flagDefinitions = flagDefinitions
        self.email = email
        self.id = id
        self.name = name
        self.principalName = principalName
        self.role = role
        self.testerID = testerID
        self.secretSHA256 = secretSHA256
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var principal: Principal { Principal(name: principalName, role: role, testerID: testerID, tokenID: id, eventStreams: eventStreams,
                                     flagDefinitions: flagDefinitions) }
}
