/// The two JOSE signature algorithms Vouch accepts on an identity provider's ID token (RFC 7518 §3.3 and §3.4):
/// RSASSA-PKCS1-v1_5 with SHA-256, and ECDSA on P-256 with SHA-256. Anything else, `none` above all, is refused
/// before a key is looked at (docs/sign-in.md).
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256"
    case es256 = "ES256"
}
