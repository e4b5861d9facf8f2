/// The canonical CBOR (RFC 8949, section 4.2.1: shortest heads) of the values flagd's `fractional` hashes: text
/// strings and arrays of them. Written straight into a hash, or as bytes for the test vectors.
public enum CanonicalCBOR {
    public indirect enum Value: Sendable, Equatable {
        case text(String)
        case array([Value])
    }

    public static func encode(_ value: Value) -> [UInt8] {
        var bytes: [UInt8] = []
        write(value, to: &bytes)
        return bytes
    }

    private static func write(_ value: Value, to bytes: inout [UInt8]) {
        switch value {
        case .text(let text):
            head(major: 3, count: UInt64(text.utf8.count)) { bytes.append($0) }
            bytes.append(contentsOf: text.utf8)
        case .array(let items):
            head(major: 4, count: UInt64(items.count)) { bytes.append($0) }
            for item in items { write(item, to: &bytes) }
        }
    }

    static func addArrayHeader(count: Int, to hash: inout Murmur3.Accumulator) {
        head(major: 4, count: UInt64(count)) { hash.add($0) }
    }

    /// A text string's head and its UTF-8 bytes.
    static func addText(_ utf8: UnsafeRawBufferPointer, to hash: inout Murmur3.Accumulator) {
        head(major: 3, count: UInt64(utf8.count)) { hash.add($0) }
        hash.add(utf8)
    }

    /// The major type in the top 3 bits; the count in the low 5 when below 24, otherwise in the fewest of 1, 2, 4 or
    /// 8 big-endian bytes after 24...27.
    @inline(__always)
    private static func head(major: UInt8, count: UInt64, _ emit: (UInt8) -> Void) {
        let type = major << 5
        switch count {
        case ..<24:
            emit(type | UInt8(count))
        case ..<0x100:
            emit(type | 24)
            emit(UInt8(count))
        case ..<0x1_0000:
            emit(type | 25)
            bigEndian(count, bytes: 2, emit)
        case ..<0x1_0000_0000:
            emit(type | 26)
            bigEndian(count, bytes: 4, emit)
        default:
            emit(type | 27)
            bigEndian(count, bytes: 8, emit)
        }
    }

    @inline(__always)
    private static func bigEndian(_ value: UInt64, bytes: Int, _ emit: (UInt8) -> Void) {
        for index in stride(from: bytes - 1, through: 0, by: -1) { emit(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}
