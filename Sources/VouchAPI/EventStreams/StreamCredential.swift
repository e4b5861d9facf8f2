import Foundation
import VouchCrypto

/// The credential in an event stream's address: a browser's `EventSource` cannot send a header, so the address
/// itself must say who may listen. It names the token and when it expires, signed with a key kept in the database
/// (so every vouchd on one database accepts it, and a restart does not break reconnecting clients); it never holds
/// the token's secret, and it only opens a stream while the token is still active.
///
/// Within one half of its lifetime every bulk answer for a token carries the same credential, so a client is not
/// told of a new address (and reconnected) on every refetch; each one stays valid for at least half its lifetime.
public struct StreamCredential: Sendable, Equatable {
    public var tokenID: String
    /// Seconds since 1970 after which the credential no longer opens a stream.
    public var expiresAt: Int64

    public init(tokenID: String, expiresAt: Int64) {
        self.tokenID = tokenID
        self.expiresAt = expiresAt
    }

    /// The credential every answer for `tokenID` carries at `now`.
    public static func current(tokenID: String, now: Date, lifetimeSeconds: Int) -> StreamCredential {
        let lifetime = Int64(max(2, lifetimeSeconds))
        let window = lifetime / 2
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return StreamCredential(tokenID: tokenID, expiresAt: (seconds / window) * window + lifetime)
    }

    /// `<token id>.<expiry>.<signature>`, each part base64url; safe in a query string as it is.
    public func encoded(key: [UInt8]) -> String {
        let payload = StreamCredential.base64URL(Array(tokenID.utf8)) + "." + String(expiresAt)
        return payload + "." + StreamCredential.base64URL(StreamCredential.signature(payload, key: key))
    }

    /// Why a presented credential does not open a stream.
    public enum Refusal: Error, Equatable {
        case malformed
        case badSignature
        case expired
    }

    /// Reads and checks a presented credential: well formed, signed with `key`, not expired at `now`.
    public static func verify(_ text: String, key: [UInt8], now: Date) -> Result<StreamCredential, Refusal> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, text.utf8.count <= 512, let tokenBytes = bytes(base64URL: parts[0]), let tokenID = String(bytes: tokenBytes, encoding: .utf8),
              !tokenID.isEmpty, let expiresAt = Int64(parts[1]), let presented = bytes(base64URL: parts[2]) else { return .failure(.malformed) }
        let payload = parts[0] + "." + parts[1]
        guard Digest.constantTimeEquals(signature(String(payload), key: key), presented) else { return .failure(.badSignature) }
        guard Int64(now.timeIntervalSince1970) < expiresAt else { return .failure(.expired) }
        return .success(StreamCredential(tokenID: tokenID, expiresAt: expiresAt))
    }

    /// HMAC-SHA-256 over a label and the payload, cut to 128 bits: enough against forgery, short in an address.
    private static func signature(_ payload: String, key: [UInt8]) -> [UInt8] {
        Array(Digest.hmacSHA256(key: key, message: Array(("vouch-ofrep-stream." + payload).utf8)).prefix(16))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func bytes(base64URL text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
