/// Why an ID token was not accepted: one case per check of OpenID Connect Core §3.1.3.7, so the sign-in callback can
/// answer each in words and tests can tell them apart. No case carries the token or a claim's value that could be a
/// secret; issuers and audiences are public configuration.
public enum IDTokenRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not three base64url parts of JSON objects, or a required claim of the wrong type.
    case malformed(String)
    /// The header's `alg` is not RS256 or ES256 (`none` included).
    case unsupportedAlgorithm(String)
    /// The header names a `crit` extension, none of which Vouch understands (RFC 7515 §4.1.11).
    case criticalHeader
    /// No key of the token's `kid` and algorithm in the key set: the caller fetches the key set again, once.
    case unknownKey(id: String?)
    case badSignature
    case wrongIssuer(expected: String, found: String)
    case wrongAudience(expected: String)
    case wrongAuthorizedParty(expected: String)
    case expired(secondsAgo: Int)
    case issuedInTheFuture(secondsAhead: Int)
    case missingClaim(String)
    case wrongNonce

    public var description: String {
        switch self {
        case .malformed(let reason): "the ID token is malformed: \(reason)"
        case .unsupportedAlgorithm(let algorithm): "the ID token is signed with \(algorithm), and only RS256 and ES256 are accepted"
        case .criticalHeader: "the ID token's header has a \"crit\" extension Vouch does not understand"
        case .unknownKey(let id): "no key \(id.map { "with kid \"\($0)\"" } ?? "without a kid") in the provider's key set matches the ID token"
        case .badSignature: "the ID token's signature does not match the provider's key"
        case .wrongIssuer(let expected, let found): "the ID token was issued by \"\(found)\", not by \"\(expected)\""
        case .wrongAudience(let expected): "the ID token is not meant for client \"\(expected)\" (aud)"
        case .wrongAuthorizedParty(let expected): "the ID token was given to another client than \"\(expected)\" (azp)"
        case .expired(let seconds): "the ID token expired \(seconds) seconds ago"
        case .issuedInTheFuture(let seconds): "the ID token says it was issued \(seconds) seconds from now"
        case .missingClaim(let claim): "the ID token has no \"\(claim)\" claim"
        case .wrongNonce: "the ID token's nonce is not the one this sign-in sent"
        }
    }
}
