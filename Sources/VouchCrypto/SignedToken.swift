/// A short text made unguessable by an HMAC of it under a server key: `payload.mac`, where the payload is the
/// caller's (letters, digits, `_`, `-` and `.`) and the MAC 32 hex digits. Nothing needs storing to check one later,
/// and a changed payload no longer matches. Used for the one-click unsubscribe address of a mail
/// (docs/notifications.md).
public enum SignedToken {
    /// The payload and its MAC; the payload must not be empty.
    public static func make(_ payload: String, key: [UInt8]) -> String {
        payload + "." + mac(payload, key: key)
    }

    /// The payload of a token made with `key`, or nil for anything else.
    public static func payload(of token: String, key: [UInt8]) -> String? {
        guard let dot = token.lastIndex(of: "."), dot != token.startIndex, token.utf8.count <= 512 else { return nil }
        let payload = String(token[..<dot])
        let given = Array(token[token.index(after: dot)...].utf8)
        return Digest.constantTimeEquals(given, Array(mac(payload, key: key).utf8)) ? payload : nil
    }

    private static func mac(_ payload: String, key: [UInt8]) -> String {
        Digest.hex(Array(Digest.hmacSHA256(key: key, message: Array(payload.utf8)).prefix(16)))
    }
}
