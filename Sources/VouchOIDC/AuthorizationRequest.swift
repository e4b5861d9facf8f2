import Foundation
import VouchCrypto

/// One sign-in's secrets and the address the browser is sent to (OpenID Connect Core §3.1.2.1, with PKCE, RFC 7636):
/// `state` ties the callback to the browser that started, `nonce` ties the ID token to this sign-in, and the code
/// verifier proves at the token endpoint that whoever redeems the code started the sign-in. Each is 32 random bytes
/// in base64url; only the verifier's S256 challenge leaves vouchd before the callback. None of them may be logged.
public struct AuthorizationRequest: Sendable, Equatable {
    public var state: String
    public var nonce: String
    public var codeVerifier: String

    public init(state: String, nonce: String, codeVerifier: String) {
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
    }

    /// Fresh random values for a new sign-in.
    public static func random() -> AuthorizationRequest {
        func secret() -> String { Base64URL.encode(SecureRandom.bytes(count: 32)) }
        return AuthorizationRequest(state: secret(), nonce: secret(), codeVerifier: secret())
    }

    /// The values of one sign-in, derived from the secret of the browser's pre-session cookie, each under its own
    /// label: the server keeps only the secret's SHA-256, the callback derives them again from the cookie, and a
    /// `state` that is not the cookie's own does not match (docs/sign-in.md).
    public static func derived(from secret: String) -> AuthorizationRequest {
        func value(_ label: String) -> String { Base64URL.encode(Digest.sha256(Array("vouch oidc \(label)\n\(secret)".utf8))) }
        return AuthorizationRequest(state: value("state"), nonce: value("nonce"), codeVerifier: value("code verifier"))
    }

    /// The S256 code challenge of `verifier`: base64url of its SHA-256 (RFC 7636 §4.2).
    public static func codeChallenge(for verifier: String) -> String {
        Base64URL.encode(Digest.sha256(verifier))
    }

    /// The authorization endpoint's address with this sign-in's parameters, the endpoint's own query kept.
    public func url(authorizationEndpoint: String, clientID: String, redirectURL: String, scopes: [String]) -> String? {
        guard var components = URLComponents(string: authorizationEndpoint) else { return nil }
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURL),
            URLQueryItem(name: "scope", value: scopes.joined(separator: " ")),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "nonce", value: nonce),
            URLQueryItem(name: "code_challenge", value: Self.codeChallenge(for: codeVerifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        components.queryItems = items
        // URLComponents leaves '+' as it is, which a form decoder reads as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string
    }
}
