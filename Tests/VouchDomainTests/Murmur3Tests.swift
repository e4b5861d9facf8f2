import Testing
import VouchDomain

@Suite struct Murmur3Tests {
    /// Published MurmurHash3_x86_32 vectors, covering every tail length (0 to 3 bytes) and several seeds.
    @Test(arguments: [
        ("", UInt32(0), UInt32(0)),
        ("", 1, 0x514E_28B7),
        ("", 0xFFFF_FFFF, 0x81F1_6F39),
        ("test", 0, 0xBA6B_D213),
        ("a", 0x9747_B28C, 0x7FA0_9EA6),
        ("abc", 0x9747_B28C, 0xC84A_62DD),
        ("aaaa", 0x9747_B28C, 0x5A97_808A),
        ("Hello, world!", 0x9747_B28C, 0x2488_4CBA),
        ("The quick brown fox jumps over the lazy dog", 0x9747_B28C, 0x2FA8_26CD),
    ])
    func knownVectors(text: String, seed: UInt32, expected: UInt32) {
        #expect(Murmur3.hash32(Array(text.utf8), seed: seed) == expected)
        // Fed in two pieces split anywhere, as bucketing feeds the flag key and the targeting key: the same hash.
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            var accumulator = Murmur3.Accumulator(seed: seed)
            bytes[..<split].withUnsafeBytes { accumulator.add($0) }
            bytes[split...].withUnsafeBytes { accumulator.add($0) }
            #expect(accumulator.finish() == expected, "split at \(split)")
        }
    }

    @Test func zeroBytesAreHashed() {
        #expect(Murmur3.hash32([UInt8](repeating: 0, count: 4)) == 0x2362_F9DE)
    }

    @Test func nonASCIIKeysHashTheirUTF8Bytes() {
        let text = "ユーザー"
        #expect(Murmur3.hash32(Array(text.utf8)) == Murmur3.hash32(text.utf8))
        #expect(Murmur3.hash32(Array(text.utf8)) != Murmur3.hash32(Array("user".utf8)))
    }
}
