/// MurmurHash3 x86 32-bit, the hash Unleash buckets users with.
public enum Murmur3 {
    public static func hash32<Bytes: Collection>(_ bytes: Bytes, seed: UInt32 = 0) -> UInt32 where Bytes.Element == UInt8 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var h = seed
        var block: UInt32 = 0
        var blockLength = 0
        var length = 0
        for byte in bytes {
            block |= UInt32(byte) << (8 * UInt32(blockLength))
            blockLength += 1
            length += 1
            if blockLength == 4 {
                var k = block &* c1
                k = (k << 15) | (k >> 17)
                k = k &* c2
                h ^= k
                h = (h << 13) | (h >> 19)
                h = h &* 5 &+ 0xe654_6b64
                block = 0
                blockLength = 0
            }
        }
        if blockLength > 0 {
            var k = block &* c1
            k = (k << 15) | (k >> 17)
            k = k &* c2
            h ^= k
        }
        h ^= UInt32(truncatingIfNeeded: length)
        h ^= h >> 16
        h = h &* 0x85eb_ca6b
        h ^= h >> 13
        h = h &* 0xc2b2_ae35
        h ^= h >> 16
        return h
    }
}
