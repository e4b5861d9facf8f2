import CCrypto

/// Cryptographically strong random bytes from OpenSSL's RAND_bytes.
public enum SecureRandom {
    public static func bytes(count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        // "RAND_bytes() returns 1 on success, -1 if not supported by the current RAND method, or 0 on other failure."
        let status = buffer.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(status == 1, "OpenSSL RAND_bytes failed; refusing to make a guessable secret")
        return buffer
    }

    /// Random bytes as lowercase letters and digits, for ids and tokens that people copy by hand.
    public static func alphanumeric(count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(count)
        // Rejection sampling keeps every character equally likely: 252 is the largest multiple of 36 below 256.
        while result.count < count {
            for byte in bytes(count: count * 2) where byte < 252 && result.count < count {
                result.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
