/// One part of the snapshot's targets table: an open-addressing table (linear probing) of (flag, targeting key)
/// pairs, and the keys' bytes next to it.
///
/// The table is split into shards (by the targeting key's hash, then the pair's: `FlagIndex.shard(keyHash:pairHash:)`)
/// so that swapping one rule in copies only the shards its keys fall in, not every pair, and a bulk evaluation for
/// one key reads a few shards' filters only.
struct TargetShard: Sendable {
    struct Slot: Sendable {
        var hash: UInt64
        /// The flag's slot in the flag table; `Slot.free` marks an empty slot.
        var flag: UInt32
        /// Where the key is in `keyBytes`: a native-endian UInt32 length, then the bytes.
        var keyStart: UInt32

        static let free = UInt32.max
        static let empty = Slot(hash: 0, flag: free, keyStart: 0)
    }

    private(set) var slots: [Slot]
    /// A Bloom filter of the pairs' hashes, 16 bits per pair at most half a slot table full: two bits of one word
    /// per pair. Most evaluations are for keys a flag does not target; the filter (a few hundred KiB for 100,000
    /// pairs, so usually in cache) answers those without reading the slot table. Removing a pair leaves its bits
    /// set, which only costs a later lookup of the table; a rebuild clears them.
    private(set) var filter: [UInt64]
    private(set) var keyBytes: [UInt8] = []
    private(set) var count = 0
    /// Bytes of removed keys still in `keyBytes`; the shard compacts itself when they outweigh the live ones.
    private var deadBytes = 0
    /// `slots.count - 1` and `filter.count - 1`, kept beside the arrays: a lookup finds its slot and filter word
    /// from these, without first reading the count in the array's own header (another likely cache miss, and one
    /// the read of the slot would have to wait for).
    private var slotMask: Int
    private var filterMask: Int

    init(expectedCount: Int) {
        let capacity = TargetShard.capacity(for: expectedCount)
        slots = Array(repeating: .empty, count: capacity)
        filter = Array(repeating: 0, count: capacity / 8)
        slotMask = capacity - 1
        filterMask = capacity / 8 - 1
    }

    /// A shard of pairs staged elsewhere: `pairs` point into `keyBytes`, written by `appendKey`.
    init(pairs: [Slot], keyBytes: [UInt8]) {
        self.init(expectedCount: pairs.count)
        self.keyBytes = keyBytes
        count = pairs.count
        for pair in pairs { place(pair) }
    }

    /// Appends a key as the shard stores it and returns where it starts.
    static func appendKey(_ key: UnsafeRawBufferPointer, to keyBytes: inout [UInt8]) -> UInt32 {
        let keyStart = UInt32(keyBytes.count)
        withUnsafeBytes(of: UInt32(key.count)) { keyBytes.append(contentsOf: $0) }
        keyBytes.append(contentsOf: key)
        return keyStart
    }

    /// At most half full, so a miss probes about two slots; at least 8, so the filter has a word.
    private static func capacity(for count: Int) -> Int {
        var capacity = 8
        while capacity < 2 * count { capacity *= 2 }
        return capacity
    }

    /// - Parameter first: the slot at the hash's home position, when the caller already read it (`firstSlot`).
    @inline(__always)
    func contains(hash: UInt64, flag: Int, key: UnsafeRawBufferPointer, first: Slot? = nil) -> Bool {
        position(hash: hash, flag: UInt32(truncatingIfNeeded: flag), key: key, first: first) != nil
    }

    /// False when the pair is certainly not in the shard; true when it may be (look it up).
    @inline(__always)
    func mayContain(hash: UInt64) -> Bool {
        let (word, bits) = TargetShard.filterPosition(hash, wordMask: filterMask)
        return filter.withUnsafeBufferPointer { $0[word] & bits == bits }
    }

    /// The filter word of a pair's hash and its two bits there, from a remix of the hash (its low bits pick the
    /// slot and its top bits the shard, so they would tell the pairs of one word apart poorly).
    @inline(__always)
    private static func filterPosition(_ hash: UInt64, wordMask: Int) -> (word: Int, bits: UInt64) {
        let mixed = hash &* 0x9e37_79b9_7f4a_7c15
        let word = Int(truncatingIfNeeded: mixed >> 32) & wordMask
        return (word, (1 << (mixed & 63)) | (1 << ((mixed >> 6) & 63)))
    }

    /// The slot at the hash's home position, where a probe for it starts.
    @inline(__always)
    func firstSlot(hash: UInt64) -> Slot {
        slots.withUnsafeBufferPointer { $0[Int(truncatingIfNeeded: hash) & slotMask] }
    }

    @inline(__always)
    private func position(hash: UInt64, flag: UInt32, key: UnsafeRawBufferPointer, first: Slot? = nil) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slotMask
            var index = Int(truncatingIfNeeded: hash) & mask
            var next = first
            while true {
                let slot = next ?? slots[index]
                next = nil
                if slot.flag == Slot.free { return nil }
                if slot.hash == hash && slot.flag == flag && storedKey(at: slot.keyStart, equals: key) { return index }
                index = (index + 1) & mask
            }
        }
    }

    @inline(__always)
    private func storedKey(at start: UInt32, equals key: UnsafeRawBufferPointer) -> Bool {
        keyBytes.withUnsafeBytes { bytes in
            let start = Int(start)
            let length = Int(bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self))
            return KeyHash.equal(UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<(start + 4 + length)]), key)
        }
    }

    /// Adds a pair that is not in the shard yet.
    mutating func insert(hash: UInt64, flag: Int, key: UnsafeRawBufferPointer) {
        if 2 * (count + 1) > slots.count { rebuild(capacity: TargetShard.capacity(for: count + 1)) }
        let keyStart = TargetShard.appendKey(key, to: &keyBytes)
        place(Slot(hash: hash, flag: UInt32(flag), keyStart: keyStart))
        count += 1
    }

    private mutating func place(_ slot: Slot) {
        let (word, bits) = TargetShard.filterPosition(slot.hash, wordMask: filterMask)
        filter[word] |= bits
        let mask = slotMask
        var index = Int(truncatingIfNeeded: slot.hash) & mask
        while slots[index].flag != Slot.free { index = (index + 1) & mask }
        slots[index] = slot
    }

    /// Removes a pair if present, shifting back the slots after it so no probe sequence is broken (no tombstones).
    mutating func remove(hash: UInt64, flag: Int, key: UnsafeRawBufferPointer) {
        guard var hole = position(hash: hash, flag: UInt32(flag), key: key) else { return }
        deadBytes += 4 + key.count
        let mask = slotMask
        var next = (hole + 1) & mask
        while slots[next].flag != Slot.free {
            let home = Int(truncatingIfNeeded: slots[next].hash) & mask
            // The slot may move into the hole when its home is not cyclically in (hole, next].
            let homeAfterHole = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !homeAfterHole {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = .empty
        count -= 1
        if deadBytes > keyBytes.count / 2 { rebuild(capacity: TargetShard.capacity(for: count)) }
    }

    /// Re-inserts the live pairs into a table of `capacity` slots with fresh key bytes.
    private mutating func rebuild(capacity: Int) {
        let old = self
        self = TargetShard(expectedCount: capacity / 2)
        keyBytes.reserveCapacity(old.keyBytes.count - old.deadBytes)
        old.keyBytes.withUnsafeBytes { bytes in
            for slot in old.slots where slot.flag != Slot.free {
                let start = Int(slot.keyStart)
                let length = Int(bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self))
                insert(hash: slot.hash, flag: Int(slot.flag), key: UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<(start + 4 + length)]))
            }
        }
    }
}
