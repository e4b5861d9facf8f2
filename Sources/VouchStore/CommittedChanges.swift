import Foundation

/// Everything one write transaction changed, published after its COMMIT (never for a rolled-back one).
public struct CommittedChanges: Sendable {
    /// The configuration revision after this transaction: its own when it bumped it (`configuration` is then set),
    /// otherwise the latest this process had committed.
    public let revision: Int64
    public let committedAt: Date
    public let changes: [StoreChange]
    /// What the transaction changed of flags, tokens and criteria, exactly as `Store.configurationChanges(since:)`
    /// returns it to another process; nil when it changed none of them and did not bump the revision.
    public let configuration: ConfigurationChange?

    public init(revision: Int64, committedAt: Date, changes: [StoreChange], configuration: ConfigurationChange?) {
        self.revision = revision
        self.committedAt = committedAt
        self.changes = changes
        self.configuration = configuration
    }

    /// Whether a flag's answer may have changed for someone.
    public var changesFlagRules: Bool { !(configuration?.flagRuleFixKeys.isEmpty ?? true) }

    /// Tokens that stopped working with this transaction.
    public var revokedTokenIDs: [String] { configuration?.revokedTokenIDs ?? [] }
}
