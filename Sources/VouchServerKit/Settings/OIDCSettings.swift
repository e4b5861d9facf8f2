import Foundation
import VouchDomain

/// Staff sign-in through the organisation's OpenID Provider (`console.oidc.*`, `console.token_sign_in`;
/// docs/sign-in.md). Off while `issuer` is empty.
public struct OIDCSettings: Sendable, Equatable {
    public struct RoleMapping: Sendable, Equatable {
        public init(claimValue: String, role: Role) {
            self.claimValue = claimValue
            self.role = role
        }

        public var claimValue: String
        public var role: Role
    }

    /// Why a `console.oidc.roles` value was refused, in words for the configuration error.
    public struct MappingProblem: Error, Equatable {
        public var reason: String
    }

    public var issuer: String
    public var clientID: String
    /// Where the client secret is read from; empty for a public client.
    public var clientSecretFile: String
    /// Where the provider sends the browser back: `console.oidc.redirect_url`, or the console's public address's.
    public var redirectURL: String
    public var scopes: [String]
    public var roleClaim: String
    /// In the configured order: the first that matches one of a person's values gives her role.
    public var roles: [RoleMapping]
    public var principalClaim: String
    /// Whether the sign-in page still offers a token (`console.token_sign_in`).
    public var tokenSignIn: Bool

    public var isEnabled: Bool { !issuer.isEmpty }

    /// The roles staff may get through the provider: a tester signs in with her personal link, and an sdk never signs in.
    public static let staffRoles: [Role] = [.admin, .releaseManager, .maintainer]

    /// The console's callback path, after the public address, when `console.oidc.redirect_url` is empty.
    public static let callbackPath = "/console/sign-in/oidc/callback"

    /// Each default is the configuration's (`DaemonSettings`); the redirect address is resolved by `DaemonConfiguration`.
    public init(issuer: String = DaemonConfiguration.defaults["console.oidc.issuer"],
                clientID: String = DaemonConfiguration.defaults["console.oidc.client_id"],
                clientSecretFile: String = DaemonConfiguration.defaults["console.oidc.client_secret_file"],
                redirectURL: String = DaemonConfiguration.defaults["console.oidc.redirect_url"],
                scopes: [String] = DaemonConfiguration.defaults.oidcScopes,
                roleClaim: String = DaemonConfiguration.defaults["console.oidc.role_claim"],
                roles: [RoleMapping] = DaemonConfiguration.defaults.oidcRoles,
                principalClaim: String = DaemonConfiguration.defaults["console.oidc.principal_claim"],
                tokenSignIn: Bool = DaemonConfiguration.defaults.boolean("console.token_sign_in")) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecretFile = clientSecretFile
        self.redirectURL = redirectURL
        self.scopes = scopes
        self.roleClaim = roleClaim
        self.roles = roles
        self.principalClaim = principalClaim
        self.tokenSignIn = tokenSignIn
    }

    /// The role a person with these claim values gets, or nil when none is mapped.
    public func role(for values: [String]) -> Role? {
        roles.first { values.contains($0.claimValue) }?.role
    }

    /// The client secret's first line, or nil for a public client. Read when needed, so a rotated secret is picked up.
    public func clientSecret() throws -> String? {
        guard !clientSecretFile.isEmpty else { return nil }
        let text: String
        do { text = try String(contentsOfFile: clientSecretFile, encoding: .utf8) } catch {
            throw ConfigurationError("console.oidc.client_secret_file = '\(clientSecretFile)' cannot be read: \(error.localizedDescription)")
        }
        let secret = text.split(separator: "\n", omittingEmptySubsequences: false).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !secret.isEmpty else { throw ConfigurationError("console.oidc.client_secret_file = '\(clientSecretFile)' has no secret on its first line") }
        return secret
    }

    static func issuerProblem(_ value: String) -> String? {
        guard !value.isEmpty else { return nil }
        let allowed = "expected empty or an issuer such as https://login.example.com/realms/staff (http:// only to a loopback address), "
            + "with no query or fragment"
        guard let url = URLComponents(string: value), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil, url.password == nil,
              value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return allowed }
        switch scheme {
        case "https": return nil
        case "http": return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) ? nil : allowed
        default: return allowed
        }
    }

    /// The scopes of `console.oidc.scopes`, or nil when `openid` is missing or a scope has a character OAuth does not allow.
    static func scopes(parsing value: String) -> [String]? {
        let scopes = value.split(separator: " ").map(String.init)
        // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
        let valid = scopes.allSatisfy { $0.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) } }
        return valid && scopes.contains("openid") ? scopes : nil
    }

    public static func roles(parsing value: String) throws(MappingProblem) -> [RoleMapping] {
        let allowed = staffRoles.map(\.rawValue).joined(separator: ", ")
        var mappings: [RoleMapping] = []
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.trimmingCharacters(in: .whitespaces)
            guard let equals = pair.lastIndex(of: "="), equals != pair.startIndex else {
                throw MappingProblem(reason: "expected VALUE=ROLE pairs separated by commas, such as vouch-admins=admin,vouch-release-managers=release_manager; '\(pair)' is not one")
            }
            let claimValue = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let roleName = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let role = Role(rawValue: roleName), staffRoles.contains(role) else {
                throw MappingProblem(reason: "'\(pair)' maps to '\(roleName)', which is not a role staff can get; roles: \(allowed)")
            }
            guard !mappings.contains(where: { $0.claimValue == claimValue }) else {
                throw MappingProblem(reason: "'\(claimValue)' is mapped twice")
            }
            mappings.append(RoleMapping(claimValue: claimValue, role: role))
        }
        return mappings
    }
}
