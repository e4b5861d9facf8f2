import VouchJSON

/// A JWS in compact serialisation (RFC 7515 §7.1), split and decoded but not yet trusted: the header, the claims
/// object, the signature, and the exact bytes that were signed.
struct CompactJWS {
    var header: JSONObject
    var claims: JSONObject
    var signature: [UInt8]
    var signingInput: [UInt8]

    /// An ID token longer than this is refused before it is decoded (a provider's tokens are a few kilobytes).
    static let maximumLength = 16 * 1024

    init(_ token: String) throws(IDTokenRefusal) {
        guard token.utf8.count <= Self.maximumLength else { throw .malformed("the token is longer than \(Self.maximumLength) bytes") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        // Five parts would be an encrypted token (JWE), which Vouch does not ask for.
        guard parts.count == 3 else { throw .malformed("a signed token has 3 parts separated by dots, this one has \(parts.count)") }
        guard let headerBytes = Base64URL.decode(parts[0]) else { throw .malformed("the header is not base64url") }
        guard let claimBytes = Base64URL.decode(parts[1]) else { throw .malformed("the claims are not base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        header = try Self.object(headerBytes, part: "the header is")
        claims = try Self.object(claimBytes, part: "the claims are")
        self.signature = signature
        signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    }

    /// `subject` is the start of the sentence that says what is wrong ("the claims are").
    private static func object(_ bytes: [UInt8], part subject: String) throws(IDTokenRefusal) -> JSONObject {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .malformed("\(subject) not JSON") }
        guard let object = value.objectValue else { throw .malformed("\(subject) not a JSON object") }
        return object
    }
}
