/// The 64-bit hash of the snapshot's tables: eight bytes at a time (murmur3 x64's block mixing), finished with its
/// `fmix64`. Only compared in memory, never stored, so it may differ between hosts of different byte order.
///
/// Not seeded for the tables: they hold keys that admins and testers wrote, and a lookup's cost depends on those only, so a
/// request cannot make probing longer by choosing its key.
public enum KeyHash {
    private static let c1: UInt64 = 0x87c3_7b91_1142_53d5
    private static let c2: UInt64 = 0x4cf5_ad43_2745_937f

    /// - Parameter seed: 0 for the snapshot's tables; a cache outside the domain that must keep its places unknown
    ///   outside the process (`PlaceHash`) passes a seed of its own.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var h = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9e37_79b9_7f4a_7c15)
        var offset = 0
        while offset + 8 <= count {
            h ^= scramble(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            h = ((h << 27) | (h >> 37)) &* 5 &+ 0x52dc_e729
            offset += 8
        }
        if offset < count {
            var tail: UInt64 = 0
            if count >= 8 {
                // The last eight bytes in one load, shifted so only those past the last whole block are left: the
                // same value the byte loop makes (the bytes in order from the lowest), without a loop per byte.
                tail = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) >> UInt64(8 * (8 - (count - offset)))
            } else if count >= 4 {
                // Short keys (most targeting keys): two four-byte loads that overlap in the middle, the second
                // shifted to its bytes' places; the overlapping bytes are the same in both, so ORing them is exact.
                let low = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)))
                let high = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
                tail = low | high << UInt64(8 * (count - 4))
            } else {
                var shift: UInt64 = 0
                while offset < count {
                    tail |= UInt64(bytes[offset]) << shift
                    shift += 8
                    offset += 1
                }
            }
            h ^= scramble(tail)
        }
        return finalize(h)
    }

    /// The hash of a (flag, targeting key) pair: the key's hash mixed with the flag key's, so one hash of the key
    /// serves every flag of a bulk evaluation, and a single evaluation knows where the pair is before it has found
    /// the flag (both lookups then wait for memory at the same time; see `FlagIndex.firstTargetSlot`).
    static func pair(keyHash: UInt64, flagHash: UInt64) -> UInt64 {
        finalize(keyHash ^ ((flagHash << 32) | (flagHash >> 32)) &* 0x9e37_79b9_7f4a_7c15)
    }

    /// Whether two byte ranges hold the same bytes, eight at a time.
    static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        let count = left.count
        guard count == right.count else { return false }
        var offset = 0
        while offset + 8 <= count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        while offset < count {
            if left[offset] != right[offset] { return false }
            offset += 1
        }
        return true
    }

    private static func scramble(_ word: UInt64) -> UInt64 {
        var k = word &* c1
        k = (k << 31) | (k >> 33)
        return k &* c2
    }

    private static func finalize(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }
}
