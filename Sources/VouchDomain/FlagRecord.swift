/// One slot of the snapshot's flag table: what an evaluation reads about a flag, in 32 bytes (two per cache line).
struct FlagRecord: Sendable {
    /// `KeyHash` of the flag key, compared before the key's bytes.
    var hash: UInt64
    var revision: Int
    /// Where the flag key's bytes are in the index's flag key bytes.
    var keyStart: UInt32
    var keyLength: UInt32
    var state: FixState
    /// The rule's percentage clamped to 0...100: buckets are 1...100, so clamping decides every key the same way.
    var rolloutPercentage: UInt8
    var bucketing: Bucketing
    var isOccupied: Bool
    /// The record's slot in the flag table, for its copy in key order (`RecordsInKeyOrder`), whose reader needs it
    /// to find the flag's targets. It fills what would be padding: the record stays 32 bytes.
    var slot: UInt32

    static let empty = FlagRecord(hash: 0, revision: 0, keyStart: 0, keyLength: 0, state: .draft, rolloutPercentage: 0, bucketing: .flagd,
                                  isOccupied: false, slot: 0)
}

extension FlagRecord {
    init(rule: FlagRule, hash: UInt64, slot: Int, keyStart: Int, keyLength: Int) {
        self.init(hash: hash, revision: rule.revision, keyStart: UInt32(keyStart), keyLength: UInt32(keyLength), state: rule.state,
                  rolloutPercentage: UInt8(min(100, max(0, rule.rolloutPercentage))), bucketing: rule.bucketing, isOccupied: true,
                  slot: UInt32(slot))
    }
}

extension FixState {
    /// States whose evaluation looks at the targeted keys; the index keeps targets for these only.
    var readsTargets: Bool { isTargetedOnly || self == .releasing }
}
