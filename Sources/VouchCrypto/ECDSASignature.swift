/// JOSE carries an ES256 signature as the two 32-byte integers r and s side by side (RFC 7518 §3.4); libcrypto's
/// EVP_DigestVerify wants the DER SEQUENCE of two INTEGERs (RFC 3279). These convert between the two in Swift, so no
/// DER parser of libcrypto sees bytes from the network before the signature is checked.
enum ECDSASignature {
    static let coordinateLength = 32

    /// The DER form of a raw r||s signature, or nil when the raw form is not exactly 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * coordinateLength else { return nil }
        let body = derInteger(Array(raw[..<coordinateLength])) + derInteger(Array(raw[coordinateLength...]))
        return [0x30] + derLength(body.count) + body
    }

    /// The raw r||s form of a DER signature (what libcrypto's signing gives), or nil when it is not one.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        var reader = DERReader(bytes: der)
        guard reader.take() == 0x30, let length = reader.length(), length == reader.remaining,
              let r = reader.integer(), let s = reader.integer(), reader.remaining == 0,
              let rawR = leftPadded(r), let rawS = leftPadded(s) else { return nil }
        return rawR + rawS
    }

    /// A DER INTEGER for an unsigned big-endian number: leading zeros dropped, one zero put back when the top bit is set
    /// so the number is not read as negative.
    private static func derInteger(_ unsigned: [UInt8]) -> [UInt8] {
        var digits = Array(unsigned.drop { $0 == 0 })
        if digits.isEmpty { digits = [0] }
        if digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
        return [0x02] + derLength(digits.count) + digits
    }

    private static func derLength(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }

    private static func leftPadded(_ integer: [UInt8]) -> [UInt8]? {
        let digits = Array(integer.drop { $0 == 0 })
        guard digits.count <= coordinateLength else { return nil }
        return [UInt8](repeating: 0, count: coordinateLength - digits.count) + digits
    }

    private struct DERReader {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func take() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func length() -> Int? {
            guard let first = take() else { return nil }
            if first < 0x80 { return Int(first) }
            guard first == 0x81, let long = take(), long >= 0x80 else { return nil }
            return Int(long)
        }

        mutating func integer() -> [UInt8]? {
            guard take() == 0x02, let length = length(), length > 0, length <= remaining else { return nil }
            defer { offset += length }
            return Array(bytes[offset..<(offset + length)])
        }
    }
}
