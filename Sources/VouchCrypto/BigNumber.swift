import CCrypto

/// A libcrypto BIGNUM owned by Swift: freed when the value goes.
final class BigNumber {
    let pointer: OpaquePointer

    /// A number from big-endian unsigned bytes.
    init?(_ bytes: [UInt8]) {
        guard let made = bytes.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }) else { return nil }
        pointer = made
    }

    /// Takes ownership of a BIGNUM libcrypto handed out.
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { BN_free(pointer) }

    /// The number as big-endian bytes, left-padded with zeros to `length` when given.
    func bytes(paddedTo length: Int? = nil) -> [UInt8]? {
        let count = length ?? Int((BN_num_bits(pointer) + 7) / 8)
        var output = [UInt8](repeating: 0, count: count)
        let written = output.withUnsafeMutableBufferPointer { BN_bn2binpad(pointer, $0.baseAddress, Int32(count)) }
        return written == Int32(count) ? output : nil
    }
}
