import VouchDomain

/// What one write transaction changes, gathered while it runs and sealed just before its COMMIT: a transaction that
/// changed a flag rule, a token or a fix's criteria gets the next configuration revision.
struct TransactionChanges {
    private(set) var changes: [StoreChange] = []
    /// Fixes whose rule changed; each is read again when sealing, with the revision as its version.
    private(set) var flagRuleFixKeys: [String] = []
    private(set) var addedTokenIDs: [String] = []
    private(set) var revokedTokenIDs: [String] = []
    private(set) var criteriaFixKeys: [String] = []

    /// Records a change. A `.flagRule` stands for "this fix's rule changed": the rule itself is read when sealing.
    mutating func record(_ change: StoreChange) {
        switch change {
        case .flagRule(let rule):
            flagRuleChanged(rule.key)
            return
        case .tokenAdded(let token): addedTokenIDs.append(token.id)
        case .tokenRevoked(let token): revokedTokenIDs.append(token.id)
        case .criteriaChanged(let key): if !criteriaFixKeys.contains(key) { criteriaFixKeys.append(key) }
        default: break
        }
        changes.append(change)
    }

    /// The fix's evaluation rule changed (its state, revision, rollout percentage or the keys it targets).
    mutating func flagRuleChanged(_ fixKey: String) {
        if !flagRuleFixKeys.contains(fixKey) { flagRuleFixKeys.append(fixKey) }
    }

    /// Whether the transaction changed flags, tokens or criteria, and so bumps the configuration revision.
    var bumpsRevision: Bool {
        !flagRuleFixKeys.isEmpty || !addedTokenIDs.isEmpty || !revokedTokenIDs.isEmpty || !criteriaFixKeys.isEmpty
    }
}

/// A transaction's changes once sealed inside it: complete, and with the revision's row written when it bumped one.
struct SealedChanges: Sendable {
    var changes: [StoreChange]
    var configuration: ConfigurationChange?

    static let none = SealedChanges(changes: [], configuration: nil)
}

/// A write's result and its changes, on their way from the transaction to the publication after COMMIT.
struct PendingWrite<T: Sendable>: Sendable {
    var result: T
    var sealed: SealedChanges
    var committed: CommittedChanges?
}
