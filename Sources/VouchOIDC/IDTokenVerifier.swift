import Foundation
import VouchCrypto
import VouchJSON

/// The checks of OpenID Connect Core §3.1.3.7 on an ID token from the token endpoint, in the order that refuses the
/// cheapest and least trusted first: the form, the algorithm, the key, the signature, then the claims. docs/sign-in.md.
public struct IDTokenVerifier: Sendable {
    public var issuer: String
    public var clientID: String
    /// How far the provider's clock may be from ours; never more than `maximumSkew`.
    public var skew: TimeInterval

    public static let maximumSkew: TimeInterval = 60

    public init(issuer: String, clientID: String, skew: TimeInterval = maximumSkew) {
        self.issuer = issuer
        self.clientID = clientID
        self.skew = min(max(skew, 0), Self.maximumSkew)
    }

    /// The token's claims when it is signed by a key of `keys` and meant for this client now, with `nonce`.
    public func verify(_ token: String, keys: JSONWebKeySet, nonce: String, now: Date) throws(IDTokenRefusal) -> IDTokenClaims {
        let jws = try CompactJWS(token)
        guard let name = jws.header["alg"]?.stringValue else { throw .malformed("the header has no \"alg\"") }
        guard let algorithm = SignatureAlgorithm(rawValue: name) else { throw .unsupportedAlgorithm(name) }
        guard jws.header["crit"] == nil else { throw .criticalHeader }
        let keyID: String?
        switch jws.header["kid"] {
        case nil: keyID = nil
        case .string(let id)?: keyID = id
        default: throw .malformed("the header's \"kid\" is not a string")
        }
        guard let key = keys.key(id: keyID, algorithm: algorithm) else { throw .unknownKey(id: keyID) }
        guard key.publicKey.verify(algorithm, signature: jws.signature, message: jws.signingInput) else { throw .badSignature }
        return try check(jws.claims, nonce: nonce, now: now)
    }

    private func check(_ claims: JSONObject, nonce: String, now: Date) throws(IDTokenRefusal) -> IDTokenClaims {
        let foundIssuer = try string(claims, "iss")
        guard foundIssuer == issuer else { throw .wrongIssuer(expected: issuer, found: foundIssuer) }
        let audiences: [String]
        switch claims["aud"] {
        case nil: throw .missingClaim("aud")
        case .string(let audience)?: audiences = [audience]
        case .array(let values)?:
            audiences = values.compactMap(\.stringValue)
            guard audiences.count == values.count else { throw .malformed("\"aud\" is not a string or an array of strings") }
        default: throw .malformed("\"aud\" is not a string or an array of strings")
        }
        guard audiences.contains(clientID) else { throw .wrongAudience(expected: clientID) }
        // §3.1.3.7 items 4 and 5: several audiences need an azp, and an azp must be this client.
        switch claims["azp"] {
        case nil: if audiences.count > 1 { throw .missingClaim("azp") }
        case .string(let party)?: if party != clientID { throw .wrongAuthorizedParty(expected: clientID) }
        default: throw .malformed("\"azp\" is not a string")
        }
        let expiresAt = try time(claims, "exp")
        let issuedAt = try time(claims, "iat")
        let late = now.timeIntervalSince(expiresAt)
        guard late < skew else { throw .expired(secondsAgo: Int(late.rounded(.down))) }
        let early = issuedAt.timeIntervalSince(now)
        guard early <= skew else { throw .issuedInTheFuture(secondsAhead: Int(early.rounded(.down))) }
        guard let foundNonce = claims["nonce"] else { throw .missingClaim("nonce") }
        guard let nonceText = foundNonce.stringValue, !nonce.isEmpty,
              Digest.constantTimeEquals(Array(nonceText.utf8), Array(nonce.utf8)) else { throw .wrongNonce }
        let subject = try string(claims, "sub")
        return IDTokenClaims(issuer: foundIssuer, subject: subject, audiences: audiences, expiresAt: expiresAt, issuedAt: issuedAt, all: claims)
    }

    private func string(_ claims: JSONObject, _ name: String) throws(IDTokenRefusal) -> String {
        guard let value = claims[name] else { throw .missingClaim(name) }
        guard let text = value.stringValue, !text.isEmpty else { throw .malformed("\"\(name)\" is not a non-empty string") }
        return text
    }

    /// A NumericDate (RFC 7519 §2): seconds since 1970, possibly with a fraction.
    private func time(_ claims: JSONObject, _ name: String) throws(IDTokenRefusal) -> Date {
        guard let value = claims[name] else { throw .missingClaim(name) }
        guard let seconds = value.doubleValue, seconds.isFinite else { throw .malformed("\"\(name)\" is not a number of seconds") }
        return Date(timeIntervalSince1970: seconds)
    }
}
