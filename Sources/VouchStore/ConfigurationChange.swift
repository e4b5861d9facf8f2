import Foundation

/// What one configuration revision changed, as kept in the database: enough for another process on the same
/// database to reload only what changed since the revision it last saw.
public struct ConfigurationChange: Sendable, Equatable {
    public let revision: Int64
    public let committedAt: Date
    /// Fixes whose evaluation rule changed: reload their rules.
    public let flagRuleFixKeys: [String]
    public let addedTokenIDs: [String]
    public let revokedTokenIDs: [String]
    /// Fixes whose own criteria overrides changed.
    public let criteriaFixKeys: [String]

    public init(revision: Int64, committedAt: Date, flagRuleFixKeys: [String], addedTokenIDs: [String], revokedTokenIDs: [String],
                criteriaFixKeys: [String]) {
        self.revision = revision
        self.committedAt = committedAt
        self.flagRuleFixKeys = flagRuleFixKeys
        self.addedTokenIDs = addedTokenIDs
        self.revokedTokenIDs = revokedTokenIDs
        self.criteriaFixKeys = criteriaFixKeys
    }
}
