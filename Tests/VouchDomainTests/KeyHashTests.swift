import Testing
@testable import VouchDomain

/// `KeyHash` reads the bytes after the last whole block in one load of the last eight bytes; it must give what
/// reading them one by one gives, for every length and position of the tail.
struct KeyHashTests {
    /// The hash as first written: whole blocks, then the tail byte by byte.
    static func byteByByte(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        func scramble(_ word: UInt64) -> UInt64 {
            var k = word &* 0x87c3_7b91_1142_53d5
            k = (k << 31) | (k >> 33)
            return k &* 0x4cf5_ad43_2745_937f
        }
        var h = seed ^ (UInt64(bytes.count) &* 0x9e37_79b9_7f4a_7c15)
        var offset = 0
        while offset + 8 <= bytes.count {
            // Blocks as the hash loads them, in the host's byte order.
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            h ^= scramble(word)
            h = ((h << 27) | (h >> 37)) &* 5 &+ 0x52dc_e729
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
            h ^= scramble(tail)
        }
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    @Test func theTailReadInOneLoadHashesAsTheBytesOneByOne() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
                bytes.withUnsafeBytes { buffer in
                    #expect(KeyHash.hash(buffer) == KeyHashTests.byteByByte(bytes), "length \(length)")
                    #expect(KeyHash.hash(buffer, seed: seed) == KeyHashTests.byteByByte(bytes, seed: seed), "length \(length)")
                }
            }
        }
    }

    @Test func bytesAfterTheKeyAreNotRead() {
        // A key inside a larger buffer: the loads of the tail read back from the key's end, never past it (at
        // every length, the short keys' two overlapping loads included).
        let text = Array("user-1234567890abcdef".utf8)
        for end in 1...text.count {
            let expected = KeyHashTests.byteByByte(Array(text[0..<end]))
            text.withUnsafeBytes { #expect(KeyHash.hash(UnsafeRawBufferPointer(rebasing: $0[0..<end])) == expected) }
        }
    }
}
