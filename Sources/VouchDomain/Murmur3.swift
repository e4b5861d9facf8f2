/// MurmurHash3 x86 32-bit, the hash flagd's `fractional` (and Unleash) bucket users with.
public enum Murmur3 {
    public static func hash32<Bytes: Collection>(_ bytes: Bytes, seed: UInt32 = 0) -> UInt32 where Bytes.Element == UInt8 {
        var accumulator = Accumulator(seed: seed)
        for byte in bytes { accumulator.add(byte) }
        return accumulator.finish()
    }

    /// The hash fed in pieces, so a bucketing value is hashed from the two keys' own bytes without joining them.
    public struct Accumulator: Sendable {
        private static let c1: UInt32 = 0xcc9e_2d51
        private static let c2: UInt32 = 0x1b87_3593

        private var h: UInt32
        private var block: UInt32 = 0
        private var blockLength: UInt32 = 0
        private var length: UInt32 = 0

        public init(seed: UInt32 = 0) { h = seed }

        public mutating func add(_ byte: UInt8) {
            block |= UInt32(byte) << (8 * blockLength)
            blockLength += 1
            length &+= 1
            if blockLength == 4 {
                mixBlock(block)
                block = 0
                blockLength = 0
            }
        }

        /// Whole 4-byte blocks are read as little-endian words once the pending block is complete.
        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            while blockLength != 0 && offset < bytes.count {
                add(bytes[offset])
                offset += 1
            }
            while offset + 4 <= bytes.count {
                mixBlock(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                length &+= 4
                offset += 4
            }
            while offset < bytes.count {
                add(bytes[offset])
                offset += 1
            }
        }

        public func finish() -> UInt32 {
            var h = self.h
            if blockLength > 0 { h ^= Self.scramble(block) }
            h ^= length
            h ^= h >> 16
            h = h &* 0x85eb_ca6b
            h ^= h >> 13
            h = h &* 0xc2b2_ae35
            h ^= h >> 16
            return h
        }

        private mutating func mixBlock(_ block: UInt32) {
            h ^= Self.scramble(block)
            h = (h << 13) | (h >> 19)
            h = h &* 5 &+ 0xe654_6b64
        }

        private static func scramble(_ block: UInt32) -> UInt32 {
            var k = block &* c1
            k = (k << 15) | (k >> 17)
            return k &* c2
        }
    }
}
