import Foundation
import VouchCodec
import VouchConsoleKit
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchOIDC
import VouchServerKit
import VouchServices
import VouchStore

/// Staff sign-in through the organisation's identity provider (docs/sign-in.md): the start, which sends the browser to
/// the provider with PKCE, `state` and `nonce` bound to a pre-session cookie, and the callback, which redeems the code
/// once, checks the ID token and starts a console session that ends no later than the token. A refusal is a page that
/// says which check failed; nothing logged or shown carries the code, a token or the cookie.
struct IdentityProviderPages {
    static let startPath = "/console/sign-in/oidc/start"

    let routes: ConsoleRoutes
    let store: any Store
    let provider: IdentityProvider
    let logger: Logger
    let clock: @Sendable () -> Date
    /// Each start stores a pre-session for ten minutes; an address may start this many in that time.
    let startsPerAddress = WindowLimiter<ClientAddress>(limit: 60, windowSeconds: 600)

    var sessions: ConsoleSessions { routes.sessions }

    func register(in router: inout APIRouter) {
        routes.get(&router, IdentityProviderPages.startPath, .anyone, start)
        routes.get(&router, OIDCSettings.callbackPath, .anyone, callback)
    }

    /// A link rather than a form: a form's redirect to another site would need the provider in the pages'
    /// `form-action`, and starting a sign-in changes nothing a person has.
    func start(_ request: ConsoleRequest) throws -> HTTPResponse {
        if let wait = startsPerAddress.admit(request.http.clientAddress) {
            throw Problem(status: 429, detail: "too many sign-ins were started from your address; try again in \(wait) seconds",
                          headers: [(name: "Retry-After", value: String(wait))])
        }
        let secret = SecureRandom.alphanumeric(count: 43)
        let url: String
        do { url = try provider.authorizationURL(for: AuthorizationRequest.derived(from: secret)) } catch {
            return refusal(request, .unreachable(error.description))
        }
        let next = SignInPages.safeNext(request.http.query["next"] ?? "") ?? "/console/"
        try store.createOIDCSignIn(idSHA256: Digest.sha256(secret), next: next,
                                   expiresAt: clock().addingTimeInterval(Double(ConsoleSessions.oidcSignInSeconds)))
        return .seeOther(url, headers: [ConsoleSessions.oidcCookie(secret, secure: sessions.isSecure(request.http))])
    }

    func callback(_ request: ConsoleRequest) throws -> HTTPResponse {
        let secure = sessions.isSecure(request.http)
        // The pre-session is taken before anything is checked, so a callback is tried once, right or wrong.
        guard let secret = request.http.cookie(ConsoleSessions.oidcCookieName), !secret.isEmpty, secret.utf8.count <= 128,
              let next = try store.takeOIDCSignIn(idSHA256: Digest.sha256(secret), at: clock()) else {
            return refusal(request, .state, secure: secure)
        }
        let authorization = AuthorizationRequest.derived(from: secret)
        guard let state = request.http.query["state"], Digest.constantTimeEquals(Array(state.utf8), Array(authorization.state.utf8)) else {
            return refusal(request, .state, secure: secure)
        }
        if let error = request.http.query["error"] {
            return refusal(request, .provider(Self.printable(error)), secure: secure)
        }
        guard let code = request.http.query["code"], !code.isEmpty, code.utf8.count <= 4_096 else {
            return refusal(request, .noCode, secure: secure)
        }
        let signIn: IdentityProvider.SignIn
        do { signIn = try provider.signIn(code: code, request: authorization, now: clock()) } catch {
            return refusal(request, .failed(error), secure: secure)
        }
        let identity = signIn.identity
        let cleared = try sessions.end(request.http, secure: secure)
        let cookie = try sessions.start(.identityProvider(sessionID: "oidc_" + SecureRandom.alphanumeric(count: 24), principal: identity.principal.value,
                                                          role: identity.role),
                                        for: Requester(name: identity.principal.value, credential: nil), endingNoLaterThan: signIn.expiresAt,
                                        secure: secure)
        // The principal may be an e-mail address: the log keeps the role only (the audit log names who acted).
        logger.info("console sign-in through the identity provider", [("role", identity.role.rawValue)])
        let messages = request.messages
        let until = min(signIn.expiresAt, clock().addingTimeInterval(Double(sessions.settings.sessionLifetimeSeconds)))
        // A page, not a redirect: the browser arrives from the provider's site and would hold back the session's
        // SameSite=Strict cookie on a redirect; the link below is followed from this site, with it.
        var response = request.translatedPage(messages[.oidcSignedInTitle], switcher: false, content: """
        <h1 class="heading-l">\(messages[.oidcSignedInTitle])</h1>
        <p class="body">\(messages(.oidcSignedInAs, ["name": identity.principal.value, "role": Words.role(identity.role)]))</p>
        <p class="body">\(messages.html(.oidcSignedInUntil, ["time": "<time datetime=\"\(Timestamp.string(until))\">\(messages.time(until))</time>"]))</p>
        <p class="body"><a href="\(next)" class="button">\(messages[.oidcContinue])</a></p>
        """)
        response.headers += [ConsoleSessions.oidcCookie("", secure: secure), cleared, cookie]
        return response
    }

    /// Why a sign-in gave nobody, as the refusal page says it.
    enum Refusal {
        case state
        case provider(String)
        case noCode
        case unreachable(String)
        case failed(IdentityProvider.Failure)
    }

    private func refusal(_ request: ConsoleRequest, _ refusal: Refusal, secure: Bool? = nil) -> HTTPResponse {
        let messages = request.messages
        let reason = Self.reason(refusal, messages)
        logger.warning("console sign-in through the identity provider refused", [("reason", Self.logged(refusal)),
                                                                                  ("client.address", request.http.clientAddress.description)])
        var response = request.translatedPage(messages[.oidcRefusedTitle], content: """
        <h1 class="heading-l">\(messages[.oidcRefusedTitle])</h1>
        <p class="body">\(reason)</p>
        <p class="body">\(messages[.oidcRefusedAdvice])</p>
        <p class="body"><a href="/console/sign-in">\(messages[.oidcTryAgain])</a></p>
        """)
        response.status = 403
        if let secure { response.headers.append(ConsoleSessions.oidcCookie("", secure: secure)) }
        return response
    }

    static func reason(_ refusal: Refusal, _ messages: Messages) -> String {
        switch refusal {
        case .state: return messages[.oidcRefusedState]
        case .provider(let code): return messages(.oidcRefusedProvider, ["code": code])
        case .noCode: return messages[.oidcRefusedNoCode]
        case .unreachable, .failed(.unreachable): return messages[.oidcRefusedUnreachable]
        case .failed(.exchange(let exchange)):
            let code = switch exchange {
            case .providerError(let code, let status): "HTTP \(status), \(code)"
            case .malformed: "—"
            }
            return messages(.oidcRefusedExchange, ["code": code])
        case .failed(.token(let token)):
            switch token {
            case .unknownKey, .badSignature, .unsupportedAlgorithm, .criticalHeader: return messages[.oidcRefusedSignature]
            case .malformed: return messages[.oidcRefusedMalformed]
            case .wrongIssuer: return messages[.oidcRefusedIssuer]
            case .wrongAudience: return messages[.oidcRefusedAudience]
            case .wrongAuthorizedParty: return messages[.oidcRefusedParty]
            case .expired: return messages[.oidcRefusedExpired]
            case .issuedInTheFuture: return messages[.oidcRefusedFuture]
            case .wrongNonce: return messages[.oidcRefusedNonce]
            case .missingClaim(let claim): return messages(.oidcRefusedMissingClaim, ["claim": claim])
            }
        case .failed(.identity(let identity)):
            switch identity {
            case .missingClaim(let claim): return messages(.oidcRefusedMissingClaim, ["claim": claim])
            case .unusablePrincipal(let claim, _): return messages(.oidcRefusedPrincipal, ["claim": claim])
            case .noMappedRole(let claim): return messages(.oidcRefusedNoRole, ["claim": claim])
            }
        }
    }

    /// What the log keeps: the check that failed, never the code, a token or the cookie.
    static func logged(_ refusal: Refusal) -> String {
        switch refusal {
        case .state: "no sign-in of this browser matched the state: used already, expired, started elsewhere, or tampered with"
        case .provider(let code): "the identity provider answered with error \(code)"
        case .noCode: "the identity provider sent the browser back without a code"
        case .unreachable(let reason): reason
        case .failed(let failure): failure.description
        }
    }

    /// An error code as the provider sent it, when it is short printable ASCII (RFC 6749 §4.1.2.1 allows no more).
    static func printable(_ text: String) -> String {
        text.utf8.count <= 64 && text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) ? text : "?"
    }
}
