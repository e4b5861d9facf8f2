/// `console.oidc.*` and `console.token_sign_in` read as `OIDCSettings`, and the rules between them (docs/sign-in.md).
extension DaemonConfiguration {
    public var oidcSettings: OIDCSettings {
        OIDCSettings(issuer: self["console.oidc.issuer"].trimmingCharacters(in: .whitespaces),
                     clientID: self["console.oidc.client_id"].trimmingCharacters(in: .whitespaces),
                     clientSecretFile: self["console.oidc.client_secret_file"].trimmingCharacters(in: .whitespaces),
                     redirectURL: oidcRedirectURL, scopes: oidcScopes, roleClaim: self["console.oidc.role_claim"], roles: oidcRoles,
                     principalClaim: self["console.oidc.principal_claim"], tokenSignIn: boolean("console.token_sign_in"))
    }

    public var oidcScopes: [String] { parsed("console.oidc.scopes") { OIDCSettings.scopes(parsing: $0) } }

    public var oidcRoles: [OIDCSettings.RoleMapping] { parsed("console.oidc.roles") { try? OIDCSettings.roles(parsing: $0) } }

    /// `console.oidc.redirect_url`, or the callback under `console.public_url`; empty when neither is set.
    var oidcRedirectURL: String {
        let configured = self["console.oidc.redirect_url"]
        if !configured.isEmpty { return configured }
        let publicURL = self["console.public_url"]
        guard !publicURL.isEmpty else { return "" }
        return String(publicURL.reversed().drop { $0 == "/" }.reversed()) + OIDCSettings.callbackPath
    }

    func checkOIDCCombinations() throws {
        let settings = oidcSettings
        func source(_ key: String) -> String { sources[key] ?? "default" }
        // Without a provider, turning tokens off would lock every member of staff out of the console.
        if !settings.tokenSignIn, !settings.isEnabled {
            throw ConfigurationError("console.token_sign_in = 'false' (\(source("console.token_sign_in"))) needs console.oidc.issuer: "
                + "without an identity provider and without tokens nobody could sign in to the console (docs/sign-in.md)")
        }
        guard settings.isEnabled else { return }
        let issuer = "console.oidc.issuer = '\(settings.issuer)' (\(source("console.oidc.issuer")))"
        if settings.clientID.isEmpty { throw ConfigurationError("\(issuer) needs console.oidc.client_id, the client id the provider gave vouchd") }
        if settings.roles.isEmpty {
            throw ConfigurationError("\(issuer) needs console.oidc.roles, such as vouch-admins=admin,vouch-release-managers=release_manager: "
                + "without it nobody who signs in gets a role")
        }
        if settings.redirectURL.isEmpty {
            throw ConfigurationError("\(issuer) needs console.oidc.redirect_url or console.public_url: the provider must be told an address "
                + "to send the browser back to")
        }
        _ = try settings.clientSecret()
    }
}
