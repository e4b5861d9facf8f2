import Foundation
import Synchronization
import VouchDomain
import VouchOIDC

/// The organisation's OpenID Provider as the console's sign-in uses it (docs/sign-in.md): its discovery document,
/// read once and kept; its key set, kept and fetched again once on an unknown `kid` (`KeySetCache`); the token request
/// that redeems a code; and the checks that turn the ID token into a principal and a role.
///
/// HTTP goes through `transport` (the application passes VouchClient's libcurl client), so this module stays free of it.
/// Nothing here logs, and no failure carries a code, a token, a nonce or the client secret.
public final class IdentityProvider: Sendable {
    /// One HTTP exchange: method, address, headers, body; the answer's status and body.
    public typealias Transport = @Sendable (_ method: String, _ url: String, _ headers: [(String, String)], _ body: [UInt8]?) throws
        -> (status: Int, body: [UInt8])

    /// Why a sign-in gave nobody, one case per kind of check, so the refusal page can say which in words.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The provider's discovery document or key set could not be read or used.
        case unreachable(String)
        /// The token endpoint gave no ID token (a code used twice, a wrong verifier, a wrong secret).
        case exchange(TokenExchange.Refusal)
        /// The ID token failed a check.
        case token(IDTokenRefusal)
        /// The ID token is valid but names nobody Vouch can sign in.
        case identity(OIDCIdentity.Refusal)

        public var description: String {
            switch self {
            case .unreachable(let reason): "the identity provider could not be used: \(reason)"
            case .exchange(let refusal): refusal.description
            case .token(let refusal): refusal.description
            case .identity(let refusal): refusal.description
            }
        }
    }

    /// Who signed in, and when the ID token that says so expires.
    public struct SignIn: Sendable, Equatable {
        public var identity: OIDCIdentity
        public var expiresAt: Date
    }

    /// The discovery document, read on first use and kept: its endpoints do not move while vouchd runs.
    private final class Discovery: Sendable {
        let known = Mutex<ProviderMetadata?>(nil)
        let settings: OIDCSettings
        let transport: Transport

        init(settings: OIDCSettings, transport: @escaping Transport) {
            self.settings = settings
            self.transport = transport
        }

        func metadata() throws(Failure) -> ProviderMetadata {
            if let known = known.withLock({ $0 }) { return known }
            let url = ProviderMetadata.discoveryURL(issuer: settings.issuer)
            let bytes = try IdentityProvider.fetch(url, what: "discovery document", transport: transport)
            let read: ProviderMetadata
            do { read = try ProviderMetadata(json: bytes, expectedIssuer: settings.issuer) } catch { throw .unreachable("\(url): \(error.description)") }
            known.withLock { $0 = read }
            return read
        }
    }

    public let settings: OIDCSettings
    private let transport: Transport
    private let discovery: Discovery
    private let keys: KeySetCache

    public init(settings: OIDCSettings, transport: @escaping Transport) {
        self.settings = settings
        self.transport = transport
        let discovery = Discovery(settings: settings, transport: transport)
        self.discovery = discovery
        keys = KeySetCache {
            let url = try discovery.metadata().keySetURL
            let bytes = try IdentityProvider.fetch(url, what: "key set", transport: transport)
            do { return try JSONWebKeySet(json: bytes) } catch { throw Failure.unreachable("\(url): \(error)") }
        }
    }

    /// The address the browser is sent to for this sign-in.
    public func authorizationURL(for request: AuthorizationRequest) throws(Failure) -> String {
        let endpoint = try discovery.metadata().authorizationEndpoint
        guard let url = request.url(authorizationEndpoint: endpoint, clientID: settings.clientID, redirectURL: settings.redirectURL,
                                    scopes: settings.scopes) else {
            throw .unreachable("its authorization endpoint \(endpoint) is not an address")
        }
        return url
    }

    /// Redeems `code` with the sign-in's verifier, checks the ID token against the nonce, and maps its claims.
    public func signIn(code: String, request: AuthorizationRequest, now: Date) throws(Failure) -> SignIn {
        let endpoint = try discovery.metadata().tokenEndpoint
        let secret: String?
        do { secret = try settings.clientSecret() } catch { throw .unreachable("the client secret could not be read: \(error)") }
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try transport("POST", endpoint, TokenExchange.headers(clientID: settings.clientID, clientSecret: secret),
                                   TokenExchange.body(code: code, redirectURL: settings.redirectURL, clientID: settings.clientID,
                                                      codeVerifier: request.codeVerifier))
        } catch { throw .unreachable("its token endpoint \(endpoint) could not be reached: \(error)") }
        let idToken: String
        do { idToken = try TokenExchange.idToken(status: answer.status, body: answer.body) } catch { throw .exchange(error) }
        let claims: IDTokenClaims
        do {
            claims = try keys.verify(idToken, with: IDTokenVerifier(issuer: settings.issuer, clientID: settings.clientID), nonce: request.nonce, now: now)
        } catch let refusal as IDTokenRefusal {
            throw .token(refusal)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreachable("its key set could not be read: \(error)")
        }
        do { return SignIn(identity: try OIDCIdentity(claims: claims, settings: settings), expiresAt: claims.expiresAt) } catch { throw .identity(error) }
    }

    fileprivate static func fetch(_ url: String, what: String, transport: Transport) throws(Failure) -> [UInt8] {
        let answer: (status: Int, body: [UInt8])
        do { answer = try transport("GET", url, [("Accept", "application/json")], nil) } catch {
            throw .unreachable("the \(what) at \(url) could not be fetched: \(error)")
        }
        guard answer.status == 200 else { throw .unreachable("the \(what) at \(url) answered HTTP \(answer.status), not 200") }
        return answer.body
    }
}
