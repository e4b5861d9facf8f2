import CCrypto
import Foundation

/// SHA-256 and HMAC-SHA256 through OpenSSL's libcrypto.
public enum Digest {
    public static func sha256<Bytes: ContiguousBytes>(_ data: Bytes) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        data.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { out in
                _ = SHA256(input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, out.baseAddress)
            }
        }
        return output
    }

    public static func sha256(_ text: String) -> [UInt8] { sha256(Array(text.utf8)) }

    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                output.withUnsafeMutableBufferPointer { out in
                    // "HMAC() returns a pointer to the authentication code or NULL if an error occurred."
                    let result = HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                                      messageBytes.baseAddress, messageBytes.count, out.baseAddress, &length)
                    precondition(result != nil, "OpenSSL HMAC failed")
                }
            }
        }
        return Array(output.prefix(Int(length)))
    }

    /// Equal bytes, compared in a time that depends only on the length,
    /// so a secret cannot be guessed byte by byte from how fast a wrong one is refused.
    public static func constantTimeEquals(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        if first.isEmpty { return true }
        return first.withUnsafeBytes { constantTimeEquals($0, second) }
    }

    /// The same, for bytes the caller holds in place (a secret still in the request's buffer).
    public static func constantTimeEquals(_ first: UnsafeRawBufferPointer, _ second: [UInt8]) -> Bool {
        second.withUnsafeBytes { constantTimeEquals(first, $0) }
    }

    /// Eight bytes at a time, every difference ORed into one word that is looked at only at the end: no branch
    /// depends on the bytes. OpenSSL's CRYPTO_memcmp goes byte by byte, which would be a fifth of an OFREP request's
    /// token check.
    public static func constantTimeEquals(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        let count = first.count
        guard count == second.count else { return false }
        var difference: UInt64 = 0
        var offset = 0
        while offset + 8 <= count {
            difference |= first.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            difference |= UInt64(first[offset] ^ second[offset])
            offset += 1
        }
        return difference == 0
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
