import Foundation
import VouchCrypto

/// Standard Webhooks signatures: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the secret after `whsec_`.
public enum WebhookSigner {
    public static let secretPrefix = "whsec_"

    /// A new secret: `whsec_` and base64 of 32 random bytes.
    public static func makeSecret() -> String {
        secretPrefix + Data(SecureRandom.bytes(count: 32)).base64EncodedString()
    }

    /// The key bytes of a `whsec_` secret, or nil when it is not one.
    public static func key(of secret: String) -> [UInt8]? {
        guard secret.hasPrefix(secretPrefix), let data = Data(base64Encoded: String(secret.dropFirst(secretPrefix.count))) else { return nil }
        return Array(data)
    }

    public static func signature(secret: String, id: String, timestamp: Int, body: [UInt8]) -> String? {
        guard let key = key(of: secret) else { return nil }
        let message = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Data(Digest.hmacSHA256(key: key, message: message)).base64EncodedString()
    }
}
