import Foundation

/// A tester's personal console link as stored: never the secret, only its SHA-256 (docs/console.md, "Personal links").
public struct TesterLink: Sendable, Equatable {
    public var id: String
    public var testerID: String
    public var secretSHA256: [UInt8]
    public var createdBy: String
    public var createdAt: Date
    public var expiresAt: Date
    public var revokedAt: Date?

    public init(id: String, testerID: String, secretSHA256: [UInt8], createdBy: String, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.testerID = testerID
        self.secretSHA256 = secretSHA256
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// Whether opening the link at `time` signs its tester in.
    public func opens(at time: Date) -> Bool { revokedAt == nil && time < expiresAt }
}
