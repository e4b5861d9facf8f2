import Foundation
import VouchConsoleKit
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// Signing in and out: staff with a token, testers with their personal link (docs/console.md, "Sessions").
struct SignInPages {
    let routes: ConsoleRoutes
    let store: any Store
    let tokens: TokenDirectory
    let authFailures: AuthFailureLimiter
    let logger: Logger
    let clock: @Sendable () -> Date
    /// Whether the organisation's identity provider is configured: then the page offers it first (docs/sign-in.md).
    let offersIdentityProvider: Bool
    /// Openings of personal links, per link and per address: each makes a session, so they are bounded however many
    /// browsers, scanners or scripts hold the link (docs/console.md, "Personal links").
    let linkOpensPerLink = WindowLimiter<String>(limit: 20, windowSeconds: 600)
    let linkOpensPerAddress = WindowLimiter<ClientAddress>(limit: 60, windowSeconds: 600)

    var sessions: ConsoleSessions { routes.sessions }
    /// Whether a token may sign in to the console: `console.token_sign_in`, which may be false only with a provider.
    var offersTokens: Bool { sessions.settings.oidc.tokenSignIn || !offersIdentityProvider }

    package func register(in router: inout APIRouter) {
        routes.get(&router, "/console/sign-in", .anyone, signInPage)
        routes.post(&router, "/console/sign-in", .anyone, signIn)
        routes.post(&router, "/console/sign-out", .signedIn, signOut)
        routes.get(&router, "/console/signed-out", .anyone, signedOut)
        routes.get(&router, "/console/link/{secret}", .anyone, linkPage)
        routes.post(&router, "/console/link/{secret}", .anyone, openLink)
        routes.get(&router, "/console/welcome", .anyone, welcome)
    }

    func signInPage(_ request: ConsoleRequest) throws -> HTTPResponse {
        if request.principal != nil { return .seeOther("/console/") }
        return renderSignIn(request, next: request.http.query["next"] ?? "", issues: [])
    }

    /// The form carries a token of its own, matched by a cookie: another site cannot sign a browser in with its token.
    private func renderSignIn(_ request: ConsoleRequest, next: String, issues: [FieldIssue]) -> HTTPResponse {
        let formToken = SecureRandom.alphanumeric(count: 32)
        let messages = request.messages
        guard offersIdentityProvider else { return renderTokenSignIn(request, next: next, issues: issues, formToken: formToken, intro: messages[.signInIntro]) }
        let start = IdentityProviderPages.startPath + (SignInPages.safeNext(next).map { "?next=" + ConsoleRoutes.percentEncoded($0) } ?? "")
        var content: HTML = """
        <h1 class="heading-l">\(messages[.signInHeading])</h1>
        <p class="body">\(messages[.oidcSignInIntro])</p>
        <p class="body"><a href="\(start)" class="button">\(messages[.oidcStart])</a></p>
        <p class="body">\(messages[.signInTesters])</p>
        """
        guard offersTokens else {
            content = content + "<h2 class=\"heading-m\">\(messages[.oidcTokenHeading])</h2><p class=\"body\">\(messages[.oidcTokenOff])</p>"
            return request.translatedPage(messages[.signInTitle], content: content)
        }
        content = content + "<h2 class=\"heading-m\">\(messages[.oidcTokenHeading])</h2><p class=\"body\">\(messages[.oidcTokenBreakGlass])</p>"
            + tokenForm(request, next: next, issues: issues, formToken: formToken)
        var response = request.translatedPage(messages[.signInTitle], issues: issues, content: content)
        response.headers.append(ConsoleSessions.cookie(ConsoleSessions.signInCookieName, formToken, maxAge: 3_600, secure: sessions.isSecure(request.http)))
        return response
    }

    /// The page as it is without an identity provider: the token form alone.
    private func renderTokenSignIn(_ request: ConsoleRequest, next: String, issues: [FieldIssue], formToken: String, intro: String) -> HTTPResponse {
        let messages = request.messages
        let content: HTML = """
        <h1 class="heading-l">\(messages[.signInHeading])</h1>
        <p class="body">\(intro)</p>
        <p class="body">\(messages[.signInTesters])</p>
        \(tokenForm(request, next: next, issues: issues, formToken: formToken))
        """
        var response = request.translatedPage(messages[.signInTitle], issues: issues, content: content)
        response.headers.append(ConsoleSessions.cookie(ConsoleSessions.signInCookieName, formToken, maxAge: 3_600, secure: sessions.isSecure(request.http)))
        return response
    }

    private func tokenForm(_ request: ConsoleRequest, next: String, issues: [FieldIssue], formToken: String) -> HTML {
        let messages = request.messages
        let tokenField = TextField(name: "token", label: messages[.signInTokenLabel], hint: messages[.signInTokenHint],
                                   issue: issues.first { $0.field == "token" }, type: "password", autocomplete: "current-password", spellcheck: false)
        let fields = tokenField.render(messages) + Form.hidden("next", SignInPages.safeNext(next) ?? "") + Button(messages[.signInTitle]).render()
        return Form(action: "/console/sign-in", csrf: formToken, content: fields).render()
    }

    func signIn(_ request: ConsoleRequest) throws -> HTTPResponse {
        guard offersTokens else {
            let messages = request.messages
            var response = request.translatedPage(messages[.oidcTokenOffTitle], content: """
            <h1 class="heading-l">\(messages[.oidcTokenOffTitle])</h1>
            <p class="body">\(messages[.oidcTokenOffText])</p>
            <p class="body"><a href="/console/sign-in">\(messages[.oidcTryAgain])</a></p>
            """)
            response.status = 403
            return response
        }
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
            return renderSignIn(request, next: next, issues: [FieldIssue(field: "token", message: request.messages[.signInEnterToken])])
        }
        guard let principal = tokens.principal(forSecret: secret) else {
            if !tokens.isRevoked(secret: secret) { countFailure(from: request.http.clientAddress, "unknown console tokens blocked") }
            let message = request.messages[tokens.isRevoked(secret: secret) ? .signInRevoked : .signInInvalid]
            return renderSignIn(request, next: next, issues: [FieldIssue(field: "token", message: message)])
        }
        guard principal.role != .sdk else {
            return renderSignIn(request, next: next, issues: [FieldIssue(field: "token", message: request.messages[.signInSdk])])
        }
        let secure = sessions.isSecure(request.http)
        // A new session every time: a session id planted before sign-in is never promoted to a signed-in one.
        let cleared = try sessions.end(request.http, secure: secure)
        let cookie = try sessions.start(.token(id: principal.tokenID), for: Requester(principal), secure: secure)
        return .seeOther(SignInPages.safeNext(next) ?? "/console/", headers: [cleared, cookie,
                                                                              ConsoleSessions.cookie(ConsoleSessions.signInCookieName, "", maxAge: 0, secure: secure)])
    }

    func signOut(_ request: ConsoleRequest) throws -> HTTPResponse {
        .seeOther("/console/signed-out", headers: [try sessions.end(request.http, secure: sessions.isSecure(request.http))])
    }

    func signedOut(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        return request.translatedPage(messages[.signedOutTitle], content: """
        <h1 class="heading-l">\(messages[.signedOutTitle])</h1>
        <p class="body">\(messages[.signedOutText])</p>
        <p class="body"><a href="/console/sign-in">\(messages[.signedOutAgain])</a></p>
        """)
    }

    /// A tester's personal link, opened: says whose it is and offers one button to continue. Opening it signs nobody
    /// in, since mail scanners and chat previews fetch links before the person does; the button's POST does
    /// (docs/console.md, "Personal links"). A browser already signed in through this link goes on with that session.
    func linkPage(_ request: ConsoleRequest) throws -> HTTPResponse {
        let link = try openableLink(request)
        if case .link(let id, _, _)? = request.session?.holder, id == link.id { return .seeOther("/console/") }
        let name = try store.tester(link.testerID)?.name ?? ""
        // With a session in this browser the route checks the form against it; without one, a token of the form's own
        // matched by a cookie stops another site from signing this browser in as the tester.
        let formToken = request.session?.csrf ?? SecureRandom.alphanumeric(count: 32)
        let messages = request.messages
        var staffWarning: HTML = ""
        if let staff = request.principal, staff.role != .tester {
            staffWarning = WarningText(messages(.linkStaffWarning, ["staff": staff.name])).render(messages)
        }
        let content: HTML = """
        <h1 class="heading-l">\(messages[.linkTitle])</h1>
        <p class="body">\(messages.html(.linkForName, ["name": "<strong>\(name)</strong>"]))</p>
        <p class="body">\(messages(.linkIfYou, ["name": name]))</p>
        \(staffWarning)
        \(Form(action: "/console/link/" + request.parameter("secret"), csrf: formToken, content: Button(messages(.linkContinueAs, ["name": name])).render()).render())
        """
        var response = request.translatedPage(messages[.linkTitle], content: content)
        if request.session == nil {
            response.headers.append(ConsoleSessions.cookie(ConsoleSessions.signInCookieName, formToken, maxAge: 3_600, secure: sessions.isSecure(request.http)))
        }
        return response
    }

    /// The button on a personal link's page: starts her session, then sends her to an address without the secret, so
    /// it stays out of her history and of any Referer. Staff signed in in this browser are recorded as having opened it.
    func openLink(_ request: ConsoleRequest) throws -> HTTPResponse {
        let link = try openableLink(request)
        if request.session == nil {
            guard ConsoleSessions.matches(request.form[Form.csrfFieldName], request.http.cookie(ConsoleSessions.signInCookieName) ?? "") else {
                throw Problem(status: 403, detail: "the page had expired or came from another site, so it was not used. Open your personal link again")
            }
        }
        if case .link(let id, _, _)? = request.session?.holder, id == link.id { return .seeOther("/console/") }
        for wait in [linkOpensPerLink.admit(link.id), linkOpensPerAddress.admit(request.http.clientAddress)] {
            guard let wait else { continue }
            logger.warning("personal link openings limited", [("client.address", request.http.clientAddress.description), ("link.id", link.id)])
            throw Problem(status: 429, detail: "this link was opened too often; try again in \(wait) seconds",
                          headers: [(name: "Retry-After", value: String(wait))])
        }
        let staff = request.principal.flatMap { $0.role == .tester ? nil : $0.name }
        let use = LinkUse(id: link.id, createdBy: link.createdBy, openedBy: staff)
        let secure = sessions.isSecure(request.http)
        let cleared = try sessions.end(request.http, secure: secure)
        let cookie = try sessions.start(.link(id: link.id, testerID: link.testerID, openedBy: staff),
                                        for: Requester(name: link.testerID, credential: .link(use)), endingNoLaterThan: link.expiresAt, secure: secure)
        return .seeOther("/console/welcome", headers: [cleared, cookie, ConsoleSessions.cookie(ConsoleSessions.signInCookieName, "", maxAge: 0, secure: secure)])
    }

    /// The link the request's secret opens, when it works: not revoked, not expired, its tester active. Unknown
    /// secrets count against the address, as unknown tokens do.
    private func openableLink(_ request: ConsoleRequest) throws -> TesterLink {
        let address = request.http.clientAddress
        if let wait = authFailures.retryAfter(for: address) {
            throw Problem(status: 429, detail: "too many unknown links were opened from your address; try again in \(wait) seconds",
                          headers: [(name: "Retry-After", value: String(wait))])
        }
        let secret = request.parameter("secret")
        let link = secret.utf8.count <= 128 ? try store.testerLink(secretSHA256: Digest.sha256(secret)) : nil
        guard let link, link.opens(at: clock()), try store.tester(link.testerID)?.isActive == true else {
            if link == nil { countFailure(from: address, "unknown personal links blocked") }
            throw Problem(status: 404, detail: "this link does not work: it may have expired or been revoked. "
                          + "Ask the person who sent it to you for a new one")
        }
        return link
    }

    /// Counts a guess from `address`; the guess that blocks the address is logged, as the API logs unknown tokens.
    private func countFailure(from address: ClientAddress, _ message: String) {
        guard authFailures.recordFailure(from: address) else { return }
        // The address is personal data too, but an operator needs it to act on an attack; never the secret.
        logger.warning(message, [("client.address", address.description), ("auth.max_failures", String(authFailures.settings.maxFailures))])
    }

    /// Where a personal link lands. Browsers hold back a `SameSite=Strict` cookie on the redirect that follows a link
    /// from another site (an email), so the tester continues with a link from this page, which carries it.
    func welcome(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        return request.translatedPage(messages[.welcomeTitle], content: """
        <h1 class="heading-l">\(messages[.welcomeHeading])</h1>
        <p class="body">\(messages[.welcomeText])</p>
        <p class="body"><a href="/console/" class="button">\(messages[.welcomeContinue])</a></p>
        """)
    }

    /// `next` only when it is a console page of this server: never another site (an open redirect).
    static func safeNext(_ next: String) -> String? {
        guard next.hasPrefix("/console/"), !next.hasPrefix("//"), !next.contains("\\"), !next.contains("//"),
              next.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), next.utf8.count <= 512 else { return nil }
        return next
    }
}
