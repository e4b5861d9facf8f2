/// The snapshot's rules laid out for evaluation: a flag table of 32-byte records found by a precomputed 64-bit hash,
/// the flag keys' bytes in one array, and every (flag, targeting key) pair in one hash table split into shards.
///
/// An evaluation reads the flag's record (and its key bytes to confirm it), then for a targeted-only or phased flag
/// one slot of the targets table (and the stored key's bytes when the hash matches): a few cache lines, no String or
/// Set touched, nothing retained. Built once per snapshot; a changed rule is swapped in by copying only what it
/// changes (docs/architecture.md explains the snapshot).
struct FlagIndex: Sendable {
    /// Open addressing with linear probing, at most three quarters full.
    private(set) var records: [FlagRecord]
    private(set) var flagKeyBytes: [UInt8] = []
    private(set) var count = 0
    private var shards: [TargetShard]
    /// The top bits of a pair's hash pick its shard.
    private let shardBits: Int

    /// Pairs per shard aimed at when the index is built: a swap copies a few KiB per shard it touches.
    private static let pairsPerShard = 256

    /// An empty index sized for `flagCount` flags and `targetCount` pairs; `add` fills it.
    private init(flagCount: Int, targetCount: Int) {
        var capacity = 8
        while 4 * flagCount > 3 * capacity { capacity *= 2 }
        records = Array(repeating: .empty, count: capacity)
        var bits = 0
        while (1 << bits) * FlagIndex.pairsPerShard < targetCount { bits += 1 }
        shardBits = bits
        shards = Array(repeating: TargetShard(expectedCount: FlagIndex.pairsPerShard), count: 1 << bits)
    }

    /// The index of all `rules`, and the slot of each of `orderedKeys` (all their keys). The targets are staged per
    /// shard and placed shard by shard, so placing them works in a few KiB at a time rather than all over the table.
    static func build(rules: [String: FlagRule], orderedKeys: [String]) -> (index: FlagIndex, slots: [Int]) {
        let targetCount = rules.values.reduce(0) { $0 + ($1.state.readsTargets ? $1.targetedKeys.count : 0) }
        var index = FlagIndex(flagCount: rules.count, targetCount: targetCount)
        var pairs = [[TargetShard.Slot]](repeating: [], count: index.shards.count)
        var keyBytes = [[UInt8]](repeating: [], count: index.shards.count)
        let slots = orderedKeys.map { key in
            let rule = rules[key]!
            let slot = index.addFlag(key: key, rule: rule)
            guard rule.state.readsTargets else { return slot }
            for target in rule.targetedKeys {
                target.withUTF8Bytes { target in
                    let hash = KeyHash.pair(keyHash: KeyHash.hash(target), flagHash: index.records[slot].hash)
                    let shard = index.shard(of: hash)
                    let keyStart = TargetShard.appendKey(target, to: &keyBytes[shard])
                    pairs[shard].append(TargetShard.Slot(hash: hash, flag: UInt32(slot), keyStart: keyStart))
                }
            }
            return slot
        }
        index.shards = zip(pairs, keyBytes).map { TargetShard(pairs: $0, keyBytes: $1) }
        return (index, slots)
    }

    /// The slot of the flag with this key, if any.
    @inline(__always)
    func slot(of key: UnsafeRawBufferPointer) -> Int? { slot(of: key, hash: KeyHash.hash(key)) }

    /// The same, with the key's `KeyHash` already computed.
    @inline(__always)
    func slot(of key: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        records.withUnsafeBufferPointer { records in
            let mask = records.count - 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let record = records[index]
                if !record.isOccupied { return nil }
                if record.hash == hash && flagKey(of: record, { KeyHash.equal($0, key) }) { return index }
                index = (index + 1) & mask
            }
        }
    }

    func slot(of key: String) -> Int? { key.withUTF8Bytes { slot(of: $0) } }

    /// Calls `body` with the bytes of a record's flag key.
    @inline(__always)
    func flagKey<Result>(of record: FlagRecord, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        flagKeyBytes.withUnsafeBytes { bytes in
            let start = Int(record.keyStart)
            return body(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(record.keyLength))]))
        }
    }

    /// The hash under which the (flag, key) pair is stored, for a flag found at `flagSlot`.
    @inline(__always)
    func pairHash(flagSlot: Int, keyHash: UInt64) -> UInt64 {
        KeyHash.pair(keyHash: keyHash, flagHash: records[flagSlot].hash)
    }

    /// Whether the pair is in the targets table; `first`, when given, is `firstTargetSlot(pairHash:)` read earlier
    /// (and `mayBeTargeted` was true).
    @inline(__always)
    func isTargeted(flagSlot: Int, key: UnsafeRawBufferPointer, pairHash: UInt64, first: TargetShard.Slot? = nil) -> Bool {
        let shard = shards[shard(of: pairHash)]
        guard first != nil || shard.mayContain(hash: pairHash) else { return false }
        return shard.contains(hash: pairHash, flag: flagSlot, key: key, first: first)
    }

    /// False when no flag targets a pair of this hash (the shard's filter); true when one may.
    @inline(__always)
    func mayBeTargeted(pairHash: UInt64) -> Bool {
        shards[shard(of: pairHash)].mayContain(hash: pairHash)
    }

    /// The first slot a pair's probe reads. Read before the flag is looked up, so that the two reads, each likely a
    /// cache miss at 10,000 flags and 100,000 targets, wait for memory together rather than one after the other.
    /// Not inlined, so the read stays where it is called instead of being moved next to its use.
    @inline(never)
    func firstTargetSlot(pairHash: UInt64) -> TargetShard.Slot {
        shards[shard(of: pairHash)].firstSlot(hash: pairHash)
    }

    private func shard(of pairHash: UInt64) -> Int { shardBits == 0 ? 0 : Int(truncatingIfNeeded: pairHash >> UInt64(64 - shardBits)) }

    /// Whether adding a flag keeps the table at most three quarters full; if not, the snapshot builds a larger index.
    var hasRoomForAnotherFlag: Bool { 4 * (count + 1) <= 3 * records.count }

    /// Adds a flag that is not in the index yet, under the key the snapshot looks it up by; the caller checked
    /// `hasRoomForAnotherFlag`. Returns its slot.
    mutating func add(key: String, rule: FlagRule) -> Int {
        let slot = addFlag(key: key, rule: rule)
        if rule.state.readsTargets { changeTargets(ofFlagAt: slot, adding: rule.targetedKeys, removing: []) }
        return slot
    }

    /// Adds the flag's record and key, not its targets.
    private mutating func addFlag(key: String, rule: FlagRule) -> Int {
        let keyStart = flagKeyBytes.count
        flagKeyBytes.append(contentsOf: key.utf8)
        let record = flagKeyBytes.withUnsafeBytes { bytes in
            let key = UnsafeRawBufferPointer(rebasing: bytes[keyStart...])
            return FlagRecord(rule: rule, hash: KeyHash.hash(key), keyStart: keyStart, keyLength: key.count)
        }
        let mask = records.count - 1
        var index = Int(truncatingIfNeeded: record.hash) & mask
        while records[index].isOccupied { index = (index + 1) & mask }
        records[index] = record
        count += 1
        return index
    }

    /// Swaps a changed rule into the slot of the same key: new fields, and only the targets that differ.
    mutating func update(slot: Int, from old: FlagRule, to new: FlagRule) {
        let record = records[slot]
        records[slot] = FlagRecord(rule: new, hash: record.hash, keyStart: Int(record.keyStart), keyLength: Int(record.keyLength))
        let before = old.state.readsTargets ? old.targetedKeys : []
        let after = new.state.readsTargets ? new.targetedKeys : []
        if before != after {
            changeTargets(ofFlagAt: slot, adding: after.subtracting(before), removing: before.subtracting(after))
        }
    }

    private mutating func changeTargets(ofFlagAt slot: Int, adding added: Set<String>, removing removed: Set<String>) {
        let flagHash = records[slot].hash
        for key in removed {
            key.withUTF8Bytes { key in
                let hash = KeyHash.pair(keyHash: KeyHash.hash(key), flagHash: flagHash)
                shards[shard(of: hash)].remove(hash: hash, flag: slot, key: key)
            }
        }
        for key in added {
            key.withUTF8Bytes { key in
                let hash = KeyHash.pair(keyHash: KeyHash.hash(key), flagHash: flagHash)
                shards[shard(of: hash)].insert(hash: hash, flag: slot, key: key)
            }
        }
    }
}
