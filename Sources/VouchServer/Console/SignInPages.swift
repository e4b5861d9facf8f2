import Foundation
import VouchConsole
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchStore

/// Signing in and out: staff with a token, testers with their personal link (docs/console.md, "Sessions").
struct SignInPages {
    let routes: ConsoleRoutes
    let store: any Store
    let tokens: TokenDirectory
    let authFailures: AuthFailureLimiter
    let clock: @Sendable () -> Date

    var sessions: ConsoleSessions { routes.sessions }

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/sign-in", .anyone, signInPage)
        routes.post(&router, "/console/sign-in", .anyone, signIn)
        routes.post(&router, "/console/sign-out", .signedIn, signOut)
        routes.get(&router, "/console/signed-out", .anyone, signedOut)
        routes.get(&router, "/console/link/{secret}", .anyone, openLink)
        routes.get(&router, "/console/welcome", .anyone, welcome)
    }

    func signInPage(_ request: ConsoleRequest) throws -> HTTPResponse {
        if request.principal != nil { return .seeOther("/console/") }
        return renderSignIn(request, next: request.http.query["next"] ?? "", issues: [])
    }

    /// The form carries a token of its own, matched by a cookie: another site cannot sign a browser in with its token.
    private func renderSignIn(_ request: ConsoleRequest, next: String, issues: [FieldIssue]) -> HTTPResponse {
        let formToken = SecureRandom.alphanumeric(count: 32)
        let tokenField = TextField(name: "token", label: "Your token", hint: "It starts with vch_. An administrator gives it to you, or runs vouch token create.",
                                   issue: issues.first { $0.field == "token" }, type: "password", autocomplete: "current-password", spellcheck: false)
        let content: HTML = """
        <h1 class="heading-l">Sign in to Vouch</h1>
        <p class="body">Release managers, maintainers and administrators sign in with their token. You stay signed in on this device until you sign out or do not use the console for a day.</p>
        <p class="body">If you test fixes, open the personal link you were sent instead: you do not need a token.</p>
        \(Form(action: "/console/sign-in", csrf: formToken, content: tokenField.render() + Form.hidden("next", SignInPages.safeNext(next) ?? "") + Button("Sign in").render()).render())
        """
        var response = request.page("Sign in", issues: issues, content: content)
        response.headers.append(ConsoleSessions.cookie(ConsoleSessions.signInCookieName, formToken, maxAge: 3_600, secure: sessions.isSecure(request.http)))
        return response
    }

    func signIn(_ request: ConsoleRequest) throws -> HTTPResponse {
        guard ConsoleSessions.matches(request.form[Form.csrfFieldName], request.http.cookie(ConsoleSessions.signInCookieName) ?? "") else {
            throw Problem(status: 403, detail: "the sign-in form had expired or came from another site, so it was not used. Open the sign-in page again")
        }
        if let wait = authFailures.retryAfter(for: request.http.clientAddress) {
            throw Problem(status: 429, detail: "too many unknown tokens came from your address; try again in \(wait) seconds",
                          headers: [(name: "Retry-After", value: String(wait))])
        }
        let next = request.field("next")
        let secret = request.field("token")
        guard !secret.isEmpty else {
            return renderSignIn(request, next: next, issues: [FieldIssue(field: "token", message: "Enter your token")])
        }
        guard let principal = tokens.principal(forSecret: secret) else {
            if !tokens.isRevoked(secret: secret) { _ = authFailures.recordFailure(from: request.http.clientAddress) }
            let message = tokens.isRevoked(secret: secret) ? "This token was revoked: ask an administrator for a new one"
                : "The token is not valid: check that you copied all of it, starting with vch_"
            return renderSignIn(request, next: next, issues: [FieldIssue(field: "token", message: message)])
        }
        guard principal.role != .sdk else {
            return renderSignIn(request, next: next, issues: [FieldIssue(field: "token", message: "This token is an app's (role sdk): it only reads flags. Sign in with your own token")])
        }
        let secure = sessions.isSecure(request.http)
        // A new session every time: a session id planted before sign-in is never promoted to a signed-in one.
        let cleared = try sessions.end(request.http, secure: secure)
        let cookie = try sessions.start(.token(id: principal.tokenID), secure: secure)
        return .seeOther(SignInPages.safeNext(next) ?? "/console/", headers: [cleared, cookie,
                                                                              ConsoleSessions.cookie(ConsoleSessions.signInCookieName, "", maxAge: 0, secure: secure)])
    }

    func signOut(_ request: ConsoleRequest) throws -> HTTPResponse {
        .seeOther("/console/signed-out", headers: [try sessions.end(request.http, secure: sessions.isSecure(request.http))])
    }

    func signedOut(_ request: ConsoleRequest) throws -> HTTPResponse {
        request.page("You have signed out", content: """
        <h1 class="heading-l">You have signed out</h1>
        <p class="body">Nothing of your session is kept in this browser.</p>
        <p class="body"><a href="/console/sign-in">Sign in again</a></p>
        """)
    }

    /// A tester's personal link: starts her session, then sends her to an address without the secret, so it stays out
    /// of her history and of any Referer.
    func openLink(_ request: ConsoleRequest) throws -> HTTPResponse {
        let address = request.http.clientAddress
        if let wait = authFailures.retryAfter(for: address) {
            throw Problem(status: 429, detail: "too many unknown links were opened from your address; try again in \(wait) seconds",
                          headers: [(name: "Retry-After", value: String(wait))])
        }
        let secret = request.parameter("secret")
        let link = secret.utf8.count <= 128 ? try store.testerLink(secretSHA256: Digest.sha256(secret)) : nil
        guard let link, link.opens(at: clock()), try store.tester(link.testerID)?.isActive == true else {
            if link == nil { _ = authFailures.recordFailure(from: address) }
            throw Problem(status: 404, detail: "this link does not work: it may have expired or been revoked. "
                          + "Ask the person who sent it to you for a new one")
        }
        let secure = sessions.isSecure(request.http)
        let cleared = try sessions.end(request.http, secure: secure)
        let cookie = try sessions.start(.link(id: link.id, testerID: link.testerID), endingNoLaterThan: link.expiresAt, secure: secure)
        return .seeOther("/console/welcome", headers: [cleared, cookie])
    }

    /// Where a personal link lands. Browsers hold back a `SameSite=Strict` cookie on the redirect that follows a link
    /// from another site (an email), so the tester continues with a link from this page, which carries it.
    func welcome(_ request: ConsoleRequest) throws -> HTTPResponse {
        request.page("Welcome to Vouch", content: """
        <h1 class="heading-l">Welcome to Vouch</h1>
        <p class="body">You are signed in with your personal link. You can try the fixes you test and tell the team how they work with your assistive technology.</p>
        <p class="body"><a href="/console/" class="button">Continue to your fixes</a></p>
        """)
    }

    /// `next` only when it is a console page of this server: never another site (an open redirect).
    static func safeNext(_ next: String) -> String? {
        guard next.hasPrefix("/console/"), !next.hasPrefix("//"), !next.contains("\\"), !next.contains("//"),
              next.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), next.utf8.count <= 512 else { return nil }
        return next
    }
}
