/// The snapshot's rules laid out for evaluation: a flag table of 32-byte records found by a precomputed 64-bit hash,
/// the same records in the flag keys' order (for bulk evaluation), the flag keys' bytes in one array, and every
/// (flag, targeting key) pair in one hash table split into shards.
///
/// An evaluation reads the flag's record (and its key bytes to confirm it), then for a targeted-only or phased flag
/// one slot of the targets table (and the stored key's bytes when the hash matches): a few cache lines, no String or
/// Set touched, nothing retained. Built once per snapshot; a changed rule is swapped in by copying only what it
/// changes (docs/architecture.md explains the snapshot).
///
/// Both tables are stored in pieces so that a swap copies a list of pieces and the pieces it changes, never a whole
/// table: the flag table is one open-addressing table cut into chunks of `recordsPerChunk` slots (a slot's chunk is
/// its top bits, the probe runs across chunks as over one array), and the shards are grouped two levels deep. A
/// whole flag table copied per swap was 64 MiB at a million fixes, mapped fresh and faulted in by every swap, and
/// the 65,536 shards' list a few MiB more (BENCHMARKS.md, part 12).
///
/// A pair's shard is chosen by its targeting key first (`shard(keyHash:pairHash:)`): the key's hash picks a block
/// of `1 << keySpreadBits` neighbouring shards in one group, and the pair's hash one shard of the block. So every
/// pair of one targeting key, and the filter words that rule its other pairs out, lie in a few KiB: a bulk
/// evaluation asks about one key for every flag, and those reads stay in cache for the whole call instead of
/// each missing in a filter of tens of MiB. The pair's bits keep a key targeted by very many flags (a tester in
/// thousands of fixes) from making one shard that every swap touching the key copies whole: its pairs are split
/// over the block's shards, so a swap copies a sixteenth of them.
struct FlagIndex: Sendable {
    /// Open addressing with linear probing, at most three quarters full, in chunks of `recordsPerChunk` slots (fewer
    /// when the whole table is smaller).
    private var chunks: [[FlagRecord]]
    /// `slotCapacity - 1`, and log2 of a chunk's slots with its mask: kept beside the chunks, so a probe finds its
    /// slot without reading an array's header first.
    private let slotMask: Int
    private let chunkBits: Int
    private let chunkMask: Int
    /// Each flag's rule, in the slot of its record, in chunks like the table: what writers read (`RuleTable`), never
    /// an evaluation. Kept by slot, a rule is found by the probe that finds its record, and the build writes it
    /// where its record goes instead of hashing its key into a dictionary of a million (BENCHMARKS.md, part 12).
    private var ruleChunks: [[FlagRule?]]
    private(set) var flagKeyBytes: [UInt8] = []
    private(set) var count = 0
    /// The records in the snapshot's key order, each position that of its key in `EvaluationSnapshot.orderedKeys`.
    private(set) var recordsInKeyOrder = RecordsInKeyOrder()
    /// The shards in groups: shard `s` is `shardGroups[s >> groupBits][s & groupMask]`.
    private var shardGroups: [[TargetShard]]
    /// log2 of the shard count; the top `keyBits` of a shard's number come from the targeting key's hash (the top
    /// bits of the `keyMask`), the rest from the pair's (`shard(keyHash:pairHash:)`).
    private let shardBits: Int
    private let keyBits: Int
    private let keyMask: UInt64
    private let groupBits: Int
    private let groupMask: Int

    /// Pairs per shard aimed at when the index is built: a swap copies a few KiB per shard it touches.
    private static let pairsPerShard = 256
    /// Slots per chunk of the flag table at most: 32 KiB, a few hundred fixes' records.
    static let recordsPerChunk = 1_024
    /// log2 of the shards one targeting key's pairs are spread over, at most (fewer when a group has fewer shards):
    /// 16 shards, about 8 KiB of filter words at a million fixes, the worst case a bulk evaluation reads.
    static let keySpreadBits = 4

    /// An empty index sized for `flagCount` flags and `targetCount` pairs; `add` fills it.
    private init(flagCount: Int, targetCount: Int) {
        var capacity = 8
        while 4 * flagCount > 3 * capacity { capacity *= 2 }
        let perChunk = min(capacity, FlagIndex.recordsPerChunk)
        chunks = Array(repeating: Array(repeating: .empty, count: perChunk), count: capacity / perChunk)
        ruleChunks = Array(repeating: Array(repeating: nil, count: perChunk), count: capacity / perChunk)
        slotMask = capacity - 1
        chunkBits = perChunk.trailingZeroBitCount
        chunkMask = perChunk - 1
        var bits = 0
        while (1 << bits) * FlagIndex.pairsPerShard < targetCount { bits += 1 }
        shardBits = bits
        // Half the bits (the larger half) pick the shard within its group: at 65,536 shards, 256 groups of 256.
        groupBits = (bits + 1) / 2
        groupMask = (1 << groupBits) - 1
        // The pair's bits pick a shard within the key's block, which lies inside one group.
        keyBits = bits - min(FlagIndex.keySpreadBits, groupBits)
        keyMask = keyBits == 0 ? 0 : ~0 << UInt64(64 - keyBits)
        shardGroups = Array(repeating: Array(repeating: TargetShard(expectedCount: FlagIndex.pairsPerShard), count: 1 << groupBits),
                            count: 1 << (bits - groupBits))
    }

    /// The index of the rules `rules[order[0]]`, `rules[order[1]]`, …, whose keys are `orderedKeys`, sorted: the
    /// order of the records in key order. The rules are visited in key order, which is also the order a store
    /// reads their targets in, so their sets and keys are read from memory mostly in the order they were made.
    ///
    /// The targets are staged in two passes, so that neither writes to more places at once than a cache holds: each
    /// pair goes first to its group's staging arrays (at most a few hundred groups), then, one group at a time, to its
    /// shard, counted first so each shard's arrays are made once at their size.
    static func build(rules: [FlagRule], order: [Int], orderedKeys: [String]) -> FlagIndex {
        let targetCount = order.reduce(0) { $0 + (rules[$1].state.readsTargets ? rules[$1].targetedKeys.count : 0) }
        var index = FlagIndex(flagCount: order.count, targetCount: targetCount)
        index.flagKeyBytes.reserveCapacity(orderedKeys.reduce(0) { $0 + $1.utf8.count })
        // Each group's share of the pairs, a little more for the uneven spread, and the keys' bytes at the length
        // of the first few.
        let sample = order.lazy.flatMap { rules[$0].targetedKeys.prefix(4) }.prefix(64)
        let keyBytesPerPair = 4 + (sample.isEmpty ? 36 : sample.reduce(0) { $0 + $1.utf8.count } / sample.count)
        let pairsPerGroup = targetCount / index.shardGroups.count + targetCount / index.shardGroups.count / 8 + 16
        var staged = (0..<index.shardGroups.count).map { _ in TargetShard.Staging(pairs: pairsPerGroup, keyBytesPerPair: keyBytesPerPair) }
        for (position, key) in orderedKeys.enumerated() {
            let rule = rules[order[position]]
            let slot = index.addFlag(key: key, rule: rule, position: position)
            guard rule.state.readsTargets else { continue }
            let flagHash = index.record(at: slot).hash
            for target in rule.targetedKeys {
                target.withUTF8Bytes { target in
                    let (hash, shard) = index.pair(flagHash: flagHash, key: target)
                    staged[shard >> index.groupBits].append(hash: hash, flag: slot, key: target, shard: shard & index.groupMask)
                }
            }
        }
        for group in staged.indices {
            let shards = staged[group].shards(count: 1 << index.groupBits)
            staged[group] = TargetShard.Staging()
            index.shardGroups[group] = shards
        }
        return index
    }

    /// Slots in the flag table (a power of two), occupied or not.
    var slotCapacity: Int { slotMask + 1 }

    /// Chunks the flag table is stored in.
    var chunkCount: Int { chunks.count }

    /// Shards of the targets table, and the groups they are stored in.
    var shardCount: Int { 1 << shardBits }
    var shardGroupCount: Int { shardGroups.count }

    /// The record in a slot of the flag table, occupied or not. Plain subscripts rather than unsafe buffers: the
    /// nested buffer closures, inlined into `EvaluationSnapshot.verdict`, made it large enough that the compiler
    /// stopped inlining the decision into it, about 30 more instructions an OFREP request than the bounds checks.
    @inline(__always)
    func record(at slot: Int) -> FlagRecord {
        chunks[slot &>> chunkBits][slot & chunkMask]
    }

    /// The rule of the flag in a slot; nil for a free slot.
    func rule(at slot: Int) -> FlagRule? {
        ruleChunks[slot &>> chunkBits][slot & chunkMask]
    }

    /// Every rule, in slot order.
    var rules: some Sequence<FlagRule> { ruleChunks.lazy.flatMap { $0.lazy.compactMap { $0 } } }

    /// The slot of the flag with this key, if any.
    @inline(__always)
    func slot(of key: UnsafeRawBufferPointer) -> Int? { slot(of: key, hash: KeyHash.hash(key)) }

    /// The same, with the key's `KeyHash` already computed.
    @inline(__always)
    func slot(of key: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        var index = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let record = record(at: index)
            if !record.isOccupied { return nil }
            if record.hash == hash && flagKey(of: record, { KeyHash.equal($0, key) }) { return index }
            index = (index + 1) & slotMask
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

    /// Whether the pair is in the targets table; `keyHash` is the targeting key's `KeyHash`, `pairHash` the pair's;
    /// `first`, when given, is `firstTargetSlot(keyHash:pairHash:)` read earlier (and `mayBeTargeted` was true).
    @inline(__always)
    func isTargeted(flagSlot: Int, key: UnsafeRawBufferPointer, keyHash: UInt64, pairHash: UInt64, first: TargetShard.Slot? = nil) -> Bool {
        let shard = self.shard(at: shard(keyHash: keyHash, pairHash: pairHash))
        guard first != nil || shard.mayContain(hash: pairHash) else { return false }
        return shard.contains(hash: pairHash, flag: flagSlot, key: key, first: first)
    }

    /// False when no flag targets this pair (the shard's filter); true when one may.
    @inline(__always)
    func mayBeTargeted(keyHash: UInt64, pairHash: UInt64) -> Bool {
        shard(at: shard(keyHash: keyHash, pairHash: pairHash)).mayContain(hash: pairHash)
    }

    /// The first slot a pair's probe reads. Read before the flag is looked up, so that the two reads, each likely a
    /// cache miss at 10,000 flags and 100,000 targets, wait for memory together rather than one after the other.
    /// The read is not inlined, so it stays where it is called instead of being moved next to its use; it takes the
    /// group list and the shard's place rather than the index, which would be copied whole to be passed.
    @inline(__always)
    func firstTargetSlot(keyHash: UInt64, pairHash: UInt64) -> TargetShard.Slot {
        let shard = shard(keyHash: keyHash, pairHash: pairHash)
        return FlagIndex.firstSlot(hash: pairHash, groups: shardGroups, group: shard &>> groupBits, shard: shard & groupMask)
    }

    @inline(never)
    private static func firstSlot(hash: UInt64, groups: [[TargetShard]], group: Int, shard: Int) -> TargetShard.Slot {
        groups.withUnsafeBufferPointer { groups in
            groups[group].withUnsafeBufferPointer { $0[shard].firstSlot(hash: hash) }
        }
    }

    /// The shard of a pair: the targeting key's hash gives the top `keyBits` of its number (the key's block), the
    /// pair's top bits the rest (its shard in the block). Inlined, so a lookup does not copy the index to pass it;
    /// `&>>`, since the shifts are known to be less than 64.
    @inline(__always)
    func shard(keyHash: UInt64, pairHash: UInt64) -> Int {
        let bits = (keyHash & keyMask) | ((pairHash &>> UInt64(keyBits)) & ~keyMask)
        return shardBits == 0 ? 0 : Int(truncatingIfNeeded: bits &>> UInt64(64 - shardBits))
    }

    /// The pairs a shard holds, for tests of the layout.
    func pairCount(ofShard shard: Int) -> Int { self.shard(at: shard).count }

    /// Shards one targeting key's pairs may fall in: a block of neighbouring shards in one group.
    var shardsPerKey: Int { 1 << (shardBits - keyBits) }

    @inline(__always)
    private func shard(at shard: Int) -> TargetShard {
        shardGroups[shard &>> groupBits][shard & groupMask]
    }

    /// Whether adding a flag keeps the table at most three quarters full; if not, the snapshot builds a larger index.
    var hasRoomForAnotherFlag: Bool { 4 * (count + 1) <= 3 * slotCapacity }

    /// Adds a flag that is not in the index yet, under the key the snapshot looks it up by, at `position` in the key
    /// order; the caller checked `hasRoomForAnotherFlag`.
    mutating func add(key: String, rule: FlagRule, position: Int) {
        let slot = addFlag(key: key, rule: rule, position: position)
        if rule.state.readsTargets { changeTargets(ofFlagAt: slot, adding: rule.targetedKeys, removing: []) }
    }

    /// Adds the flag's record (in the table and in key order) and key, not its targets. Returns its slot.
    private mutating func addFlag(key: String, rule: FlagRule, position: Int) -> Int {
        let keyStart = flagKeyBytes.count
        flagKeyBytes.append(contentsOf: key.utf8)
        let hash = flagKeyBytes.withUnsafeBytes { KeyHash.hash(UnsafeRawBufferPointer(rebasing: $0[keyStart...])) }
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while record(at: slot).isOccupied { slot = (slot + 1) & slotMask }
        let record = FlagRecord(rule: rule, hash: hash, slot: slot, keyStart: keyStart, keyLength: flagKeyBytes.count - keyStart)
        chunks[slot >> chunkBits][slot & chunkMask] = record
        ruleChunks[slot >> chunkBits][slot & chunkMask] = rule
        recordsInKeyOrder.insert(entryInKeyOrder(record), at: position)
        count += 1
        return slot
    }

    /// The record's entry in key order; its bucket prefix only for a phased flag, the one state that buckets (made
    /// for every flag, it was a tenth of the build).
    private func entryInKeyOrder(_ record: FlagRecord) -> RecordsInKeyOrder.Entry {
        let prefix = record.state == .releasing ? flagKey(of: record) { record.bucketing.prefix(flagKey: $0) } : Murmur3.Accumulator()
        return RecordsInKeyOrder.Entry(record: record, bucketPrefix: prefix)
    }

    /// Swaps a changed rule into the slot of the same key, at `position` in the key order: new fields, and only
    /// the targets that differ.
    mutating func update(slot: Int, position: Int, from old: FlagRule, to new: FlagRule) {
        let record = record(at: slot)
        let updated = FlagRecord(rule: new, hash: record.hash, slot: slot, keyStart: Int(record.keyStart), keyLength: Int(record.keyLength))
        chunks[slot >> chunkBits][slot & chunkMask] = updated
        ruleChunks[slot >> chunkBits][slot & chunkMask] = new
        recordsInKeyOrder[position] = entryInKeyOrder(updated)
        let before = old.state.readsTargets ? old.targetedKeys : []
        let after = new.state.readsTargets ? new.targetedKeys : []
        if before != after {
            changeTargets(ofFlagAt: slot, adding: after.subtracting(before), removing: before.subtracting(after))
        }
    }

    private mutating func changeTargets(ofFlagAt slot: Int, adding added: Set<String>, removing removed: Set<String>) {
        let flagHash = record(at: slot).hash
        for key in removed {
            key.withUTF8Bytes { key in
                let (hash, shard) = pair(flagHash: flagHash, key: key)
                shardGroups[shard >> groupBits][shard & groupMask].remove(hash: hash, flag: slot, key: key)
            }
        }
        for key in added {
            key.withUTF8Bytes { key in
                let (hash, shard) = pair(flagHash: flagHash, key: key)
                shardGroups[shard >> groupBits][shard & groupMask].insert(hash: hash, flag: slot, key: key)
            }
        }
    }

    /// The hash and the shard of the pair of a flag (by its `KeyHash`) and a targeting key, as the build and the
    /// swaps place it.
    private func pair(flagHash: UInt64, key: UnsafeRawBufferPointer) -> (hash: UInt64, shard: Int) {
        let keyHash = KeyHash.hash(key)
        let hash = KeyHash.pair(keyHash: keyHash, flagHash: flagHash)
        return (hash, shard(keyHash: keyHash, pairHash: hash))
    }
}
