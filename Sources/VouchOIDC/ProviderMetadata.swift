import VouchJSON

/// What an OpenID Provider's discovery document (`ISSUER/.well-known/openid-configuration`, OpenID Connect
/// Discovery 1.0 §4) says that Vouch needs. The document's `issuer` must be exactly the configured one (§4.3), so
/// a document from elsewhere cannot point sign-in at another provider's keys.
public struct ProviderMetadata: Sendable, Equatable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var keySetURL: String
    /// `code_challenge_methods_supported`; empty when the provider does not say (many offer S256 without saying so).
    public var codeChallengeMethods: [String]
    /// `id_token_signing_alg_values_supported`.
    public var signingAlgorithms: [String]

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { "the discovery document is not usable: \(reason)" }

        public init(reason: String) { self.reason = reason }
    }

    public static func discoveryURL(issuer: String) -> String {
        String(issuer.reversed().drop { $0 == "/" }.reversed()) + "/.well-known/openid-configuration"
    }

    public init(json bytes: [UInt8], expectedIssuer: String) throws(Invalid) {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw Invalid(reason: "not JSON (\(error.reason))") }
        guard let object = document.objectValue else { throw Invalid(reason: "not a JSON object") }
        func text(_ name: String) throws(Invalid) -> String {
            guard let value = object[name]?.stringValue, !value.isEmpty else { throw Invalid(reason: "no \"\(name)\"") }
            return value
        }
        func list(_ name: String) -> [String] { object[name]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        issuer = try text("issuer")
        guard issuer == expectedIssuer else {
            throw Invalid(reason: "its issuer is \"\(issuer)\", not the configured \"\(expectedIssuer)\"")
        }
        authorizationEndpoint = try text("authorization_endpoint")
        tokenEndpoint = try text("token_endpoint")
        keySetURL = try text("jwks_uri")
        codeChallengeMethods = list("code_challenge_methods_supported")
        signingAlgorithms = list("id_token_signing_alg_values_supported")
        if !codeChallengeMethods.isEmpty, !codeChallengeMethods.contains("S256") {
            throw Invalid(reason: "the provider offers PKCE with \(codeChallengeMethods.joined(separator: ", ")) but not S256")
        }
        let usable = signingAlgorithms.filter { $0 == "RS256" || $0 == "ES256" }
        if !signingAlgorithms.isEmpty, usable.isEmpty {
            throw Invalid(reason: "the provider signs ID tokens with \(signingAlgorithms.joined(separator: ", ")), and Vouch accepts RS256 and ES256 only")
        }
    }
}
