extension TargetShard {
    /// The pairs of one group of shards, gathered while a snapshot is built before any shard is made: writing each
    /// pair straight into its shard's arrays wrote to 65,536 places at once at 10,000,000 pairs, which no cache
    /// holds, so every append missed. Staged per group (a few hundred write fronts), then split into the group's
    /// shards one group at a time, the writes stay where a cache holds them (`FlagIndex.build`).
    struct Staging {
        private var pairs: [Slot] = []
        /// Each pair's shard within the group, found when it was staged (the pair's hash alone does not tell it).
        private var places: [UInt32] = []
        /// The pairs' keys as a shard stores them (`appendKey`); a staged pair's `keyStart` points here.
        private var keyBytes: [UInt8] = []

        init() {}

        /// Staging made with room for about `pairs` pairs of keys of `keyBytesPerPair` bytes each (with their
        /// length), so the arrays seldom grow by copying themselves.
        init(pairs: Int, keyBytesPerPair: Int) {
            self.pairs.reserveCapacity(pairs)
            places.reserveCapacity(pairs)
            keyBytes.reserveCapacity(pairs * keyBytesPerPair)
        }

        mutating func append(hash: UInt64, flag: Int, key: UnsafeRawBufferPointer, shard: Int) {
            pairs.append(Slot(hash: hash, flag: UInt32(flag), keyStart: TargetShard.appendKey(key, to: &keyBytes)))
            places.append(UInt32(shard))
        }

        /// The group's `count` shards. The pairs are counted per shard, then ordered by shard (a counting sort), so
        /// each shard's pairs and key bytes are copied in one run into arrays made at their final size.
        func shards(count: Int) -> [TargetShard] {
            var starts = [Int](repeating: 0, count: count + 1)
            var keyByteCounts = [Int](repeating: 0, count: count)
            for (pair, place) in zip(pairs, places) {
                let shard = Int(place)
                starts[shard + 1] += 1
                keyByteCounts[shard] += keyLength(at: pair.keyStart) + 4
            }
            for shard in 0..<count { starts[shard + 1] += starts[shard] }
            var next = starts
            var ordered = [Int](repeating: 0, count: pairs.count)
            for (pair, place) in places.enumerated() {
                let shard = Int(place)
                ordered[next[shard]] = pair
                next[shard] += 1
            }
            return keyBytes.withUnsafeBytes { bytes in
                (0..<count).map { shard in
                    var shardKeys: [UInt8] = []
                    shardKeys.reserveCapacity(keyByteCounts[shard])
                    let shardPairs = ordered[starts[shard]..<starts[shard + 1]].map { pair in
                        let staged = pairs[pair]
                        let start = Int(staged.keyStart)
                        let keyStart = UInt32(shardKeys.count)
                        shardKeys.append(contentsOf: bytes[start..<(start + 4 + keyLength(at: staged.keyStart))])
                        return Slot(hash: staged.hash, flag: staged.flag, keyStart: keyStart)
                    }
                    return TargetShard(pairs: shardPairs, keyBytes: shardKeys)
                }
            }
        }

        private func keyLength(at start: UInt32) -> Int {
            keyBytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: Int(start), as: UInt32.self)) }
        }
    }
}
