import Foundation

/// An API token as stored: never the secret, only its SHA-256.
public struct TokenRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var role: Role
    public var testerID: String?
    public var secretSHA256: [UInt8]
    public var createdBy: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, name: String, role: Role, testerID: String? = nil, secretSHA256: [UInt8], createdBy: String,
                createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.testerID = testerID
        self.secretSHA256 = secretSHA256
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var principal: Principal { Principal(name: name, role: role, testerID: testerID, tokenID: id) }
}
