import Testing
@testable import VouchDomain

@Suite struct TargetShardTests {
    /// Hashes chosen to collide on their home slot (and to wrap around the table's end), so removal must shift the
    /// following slots back for every remaining pair to stay reachable.
    @Test func removalKeepsCollidingPairsReachable() {
        var shard = TargetShard(expectedCount: 8)
        let capacity = shard.slots.count
        let pairs = (0..<8).map { number in
            (hash: UInt64(capacity - 2 + (number % 3)) | UInt64(number) << 32, flag: number % 2, key: "key-\(number)")
        }
        for pair in pairs { pair.key.withUTF8Bytes { shard.insert(hash: pair.hash, flag: pair.flag, key: $0) } }
        var remaining = pairs
        for index in [3, 0, 7, 5, 1, 6, 2, 4] {
            let removed = pairs[index]
            removed.key.withUTF8Bytes { shard.remove(hash: removed.hash, flag: removed.flag, key: $0) }
            remaining.removeAll { $0.key == removed.key }
            #expect(shard.count == remaining.count)
            #expect(!removed.key.withUTF8Bytes { shard.contains(hash: removed.hash, flag: removed.flag, key: $0) })
            for pair in remaining {
                #expect(pair.key.withUTF8Bytes { shard.contains(hash: pair.hash, flag: pair.flag, key: $0) }, "\(pair.key) lost after removing \(removed.key)")
            }
        }
    }

    @Test func sameHashDifferentFlagOrKeyIsNotAMatch() {
        var shard = TargetShard(expectedCount: 2)
        "tester-1".withUTF8Bytes { shard.insert(hash: 42, flag: 3, key: $0) }
        #expect("tester-1".withUTF8Bytes { shard.contains(hash: 42, flag: 3, key: $0) })
        #expect(!"tester-1".withUTF8Bytes { shard.contains(hash: 42, flag: 4, key: $0) })
        #expect(!"tester-2".withUTF8Bytes { shard.contains(hash: 42, flag: 3, key: $0) })
        #expect(!"tester-1".withUTF8Bytes { shard.contains(hash: 43, flag: 3, key: $0) })
    }

    /// Growing past half full and compacting after removals keep every pair.
    @Test func growsAndCompactsWithoutLosingPairs() {
        var shard = TargetShard(expectedCount: 1)
        let keys = (0..<100).map { "user-\($0)-" + String(repeating: "k", count: $0 % 40) }
        for (number, key) in keys.enumerated() { key.withUTF8Bytes { shard.insert(hash: UInt64(number) &* 0x9E37_79B9_7F4A_7C15, flag: 1, key: $0) } }
        #expect(shard.slots.count >= 200)
        for (number, key) in keys.enumerated() where number % 3 != 0 {
            key.withUTF8Bytes { shard.remove(hash: UInt64(number) &* 0x9E37_79B9_7F4A_7C15, flag: 1, key: $0) }
        }
        for (number, key) in keys.enumerated() {
            #expect(key.withUTF8Bytes { shard.contains(hash: UInt64(number) &* 0x9E37_79B9_7F4A_7C15, flag: 1, key: $0) } == (number % 3 == 0))
        }
        let liveBytes = keys.enumerated().filter { $0.offset % 3 == 0 }.map { $0.element.utf8.count + 4 }.reduce(0, +)
        #expect(shard.keyBytes.count <= 2 * liveBytes)
    }

    /// The filter never rules out a pair the shard holds, rules out most it does not, and a removed pair is still
    /// not found even though its bits stay set.
    @Test func filterHasNoFalseNegativesAndFewFalsePositives() {
        var shard = TargetShard(expectedCount: 256)
        let hashes = (0..<256).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678 }
        for (number, hash) in hashes.enumerated() { "key-\(number)".withUTF8Bytes { shard.insert(hash: hash, flag: 1, key: $0) } }
        #expect(hashes.allSatisfy { shard.mayContain(hash: $0) })
        let others = (0..<10_000).map { UInt64($0) &* 0xC2B2_AE3D_27D4_EB4F &+ 99 }
        let falsePositives = others.filter { shard.mayContain(hash: $0) }.count
        #expect(falsePositives < others.count / 10, "\(falsePositives) of \(others.count) not ruled out")
        "key-7".withUTF8Bytes { shard.remove(hash: hashes[7], flag: 1, key: $0) }
        #expect(shard.mayContain(hash: hashes[7]), "bits stay until a rebuild")
        #expect(!"key-7".withUTF8Bytes { shard.contains(hash: hashes[7], flag: 1, key: $0) })
        #expect("key-8".withUTF8Bytes { shard.contains(hash: hashes[8], flag: 1, key: $0) })
    }

    /// A probe that starts from a first slot read earlier answers as one that reads it itself.
    @Test func aFirstSlotReadEarlierGivesTheSameAnswers() {
        var shard = TargetShard(expectedCount: 64)
        let hashes = (0..<64).map { UInt64($0 % 16) &* 0x9E37_79B9_7F4A_7C15 }
        for (number, hash) in hashes.enumerated() where number % 2 == 0 { "key-\(number)".withUTF8Bytes { shard.insert(hash: hash, flag: 2, key: $0) } }
        for (number, hash) in hashes.enumerated() {
            for flag in [1, 2] {
                let plain = "key-\(number)".withUTF8Bytes { shard.contains(hash: hash, flag: flag, key: $0) }
                let early = "key-\(number)".withUTF8Bytes { shard.contains(hash: hash, flag: flag, key: $0, first: shard.firstSlot(hash: hash)) }
                #expect(plain == early)
                #expect(plain == (number % 2 == 0 && flag == 2))
            }
        }
    }
}
