import VouchClient
import VouchOIDC
import VouchServerKit

/// What `vouchd check-config` says of the identity provider (docs/sign-in.md): it fetches the discovery document and
/// the key set, as the console does at sign-in, and says what it found; a provider that cannot be used is an error (exit 1),
/// so a wrong issuer is found before the first person tries to sign in.
enum IdentityProviderReport {
    static func lines(for settings: OIDCSettings, timeoutSeconds: Int = 10) throws -> [String] {
        guard settings.isEnabled else {
            return ["Identity provider: none (console.oidc.issuer is empty); staff sign in with a token"]
        }
        let client = HTTPClient(timeoutSeconds: timeoutSeconds)
        client.maxResponseBodyBytes = 1 << 20
        let discoveryURL = ProviderMetadata.discoveryURL(issuer: settings.issuer)
        let metadata: ProviderMetadata
        do {
            metadata = try ProviderMetadata(json: try fetch(client, discoveryURL, what: "discovery document"), expectedIssuer: settings.issuer)
        } catch let error as ProviderMetadata.Invalid {
            throw DaemonError("identity provider: \(discoveryURL): \(error.description)")
        }
        let keys: JSONWebKeySet
        do { keys = try JSONWebKeySet(json: try fetch(client, metadata.keySetURL, what: "key set")) } catch let error as JSONWebKeySet.Invalid {
            throw DaemonError("identity provider: \(metadata.keySetURL): \(error.description)")
        }
        guard !keys.keys.isEmpty else {
            throw DaemonError("identity provider: \(metadata.keySetURL) has no RS256 or ES256 signing key Vouch can use"
                + " (\(keys.skipped) left out: other key types, curves, uses, or RSA shorter than 2048 bits)")
        }
        let described = keys.keys.map { key in "\(key.algorithm.rawValue) " + (key.id.map { "key \"\($0)\"" } ?? "key without an id") }
        return [
            "Identity provider: \(settings.issuer): discovery document read from \(discoveryURL)",
            "Identity provider authorization endpoint: \(metadata.authorizationEndpoint)",
            "Identity provider token endpoint: \(metadata.tokenEndpoint)",
            "Identity provider key set: \(metadata.keySetURL): \(keys.keys.count) usable signing "
                + (keys.keys.count == 1 ? "key" : "keys") + " (\(described.joined(separator: ", "))); \(keys.skipped) left out",
            "Identity provider PKCE with S256: " + (metadata.codeChallengeMethods.isEmpty ? "not listed by the provider" : "offered"),
            "Identity provider client: \(settings.clientID), " + (settings.clientSecretFile.isEmpty ? "public (no secret)" : "secret from \(settings.clientSecretFile)"),
            "Identity provider redirect address: \(settings.redirectURL)",
            "Identity provider roles from claim \(settings.roleClaim): "
                + settings.roles.map { "\($0.claimValue) gives \($0.role.rawValue)" }.joined(separator: ", "),
            "Identity provider principal from claim: \(settings.principalClaim)",
            "Token sign-in: " + (settings.tokenSignIn ? "offered" : "not offered"),
        ]
    }

    private static func fetch(_ client: HTTPClient, _ url: String, what: String) throws -> [UInt8] {
        let response: HTTPClient.Response
        do { response = try client.send(method: "GET", url: url, headers: [("Accept", "application/json")]) } catch {
            throw DaemonError("identity provider: the \(what) at \(url) could not be fetched: \(error.description)")
        }
        guard response.status == 200 else {
            throw DaemonError("identity provider: the \(what) at \(url) answered HTTP \(response.status), not 200")
        }
        return response.body
    }
}
