import Foundation
import Testing
@testable import VouchConsole
import VouchCrypto
import VouchDomain
import VouchOIDC
@testable import VouchServer
import VouchServerKit
import VouchStore

/// The console's routes for sign-in through the identity provider (docs/sign-in.md), and the lifetime of the sessions
/// they start. The provider here cannot be reached (nothing answers on port 9): the pages that need no provider, and
/// the refusals that come before it is asked, are checked through HTTP; the whole exchange with a real provider is
/// Tests/External/test_console_oidc.py's, and with keys made in the test IdentityProviderTests'.
struct ConsoleIdentityProviderTests {
    static func server(tokenSignIn: Bool = true) throws -> InProcessServer {
        var settings = InProcessServer.testSettings()
        settings.console.oidc = OIDCSettings(issuer: "http://127.0.0.1:9/realms/staff", clientID: "vouch-console",
                                             redirectURL: "http://127.0.0.1:9/console/sign-in/oidc/callback",
                                             roles: [.init(claimValue: "vouch-admins", role: .admin)], tokenSignIn: tokenSignIn)
        return try InProcessServer(settings: settings)
    }

    @Test func theSignInPageOffersTheProviderFirstAndATokenForBreakGlass() throws {
        let server = try Self.server()
        let browser = ConsoleBrowser(port: server.port)
        let page = try browser.get("/console/sign-in?next=/console/fixes")
        #expect(page.status == 200)
        let start = try #require(page.html.range(of: "href=\"/console/sign-in/oidc/start?next=/console/fixes\" class=\"button\""))
        let token = try #require(page.html.range(of: "id=\"field-token\""))
        #expect(start.lowerBound < token.lowerBound)
        #expect(page.html.contains("Use a token only when signing in with your organisation&#39;s account does not work."))
        let signedIn = try browser.post("/console/sign-in", [("csrf", page.csrf ?? ""), ("token", server.adminToken), ("next", "")])
        #expect(signedIn.status == 303)
    }

    @Test func withTokenSignInOffThePageOffersTheProviderOnlyAndATokenIsRefused() throws {
        let server = try Self.server(tokenSignIn: false)
        let browser = ConsoleBrowser(port: server.port)
        let page = try browser.get("/console/sign-in")
        #expect(!page.html.contains("field-token"))
        #expect(page.html.contains("Signing in with a token is turned off on this Vouch."))
        let refused = try browser.post("/console/sign-in", [("csrf", "any"), ("token", server.adminToken), ("next", "")])
        #expect(refused.status == 403)
        #expect(refused.html.contains("This Vouch signs staff in with their organisation&#39;s account only"))
        #expect(browser.cookies["vouch_console"] == nil)
        #expect(try server.call("GET", "/v1/fixes").status == 200, "the API still takes the token")
    }

    /// Opens `path` in a new browser, which must be refused with a page that says `words`.
    private func refused(_ server: InProcessServer, _ path: String, saying words: String) throws -> ConsoleBrowser {
        let browser = ConsoleBrowser(port: server.port)
        let page = try browser.get(path)
        #expect(page.status == 403)
        #expect(page.html.contains(words), "\(path)")
        return browser
    }

    @Test func aProviderThatCannotBeReachedIsARefusalPageAndStoresNothing() throws {
        let browser = try refused(try Self.server(), "/console/sign-in/oidc/start", saying: "Vouch could not use your organisation&#39;s sign-in service")
        #expect(browser.cookies["vouch_oidc"] == nil)
    }

    @Test func aCallbackIsRefusedWithoutItsPreSessionWithAnotherStateAndTheSecondTime() throws {
        let server = try Self.server()
        let browser = try refused(server, "/console/sign-in/oidc/callback?state=x&code=y", saying: "the state did not match")
        // A pre-session as the start stores it: only the SHA-256 of the cookie's secret.
        let secret = SecureRandom.alphanumeric(count: 43)
        let state = AuthorizationRequest.derived(from: secret).state
        for tampered in [String(state.dropLast()) + (state.hasSuffix("A") ? "B" : "A"), state] {
            try server.store.createOIDCSignIn(idSHA256: Digest.sha256(secret), next: "/console/", expiresAt: Date().addingTimeInterval(600))
            browser.setCookie("vouch_oidc", secret)
            let page = try browser.get("/console/sign-in/oidc/callback?state=\(tampered)&error=access_denied")
            #expect(page.status == 403)
            let expected = tampered == state ? "It answered: access_denied." : "the state did not match"
            #expect(page.html.contains(expected), "state \(tampered == state ? "right" : "tampered")")
            #expect(page.setCookies.contains { $0.hasPrefix("vouch_oidc=;") && $0.contains("Max-Age=0") })
            // Used once, right or wrong.
            #expect(try server.store.takeOIDCSignIn(idSHA256: Digest.sha256(secret), at: Date()) == nil)
        }
    }

    @Test func aPreSessionEndsAfterItsTimeAndItsCookieIsLaxHttpOnlyAndLimitedToTheCallback() throws {
        let server = try Self.server()
        let secret = SecureRandom.alphanumeric(count: 43)
        try server.store.createOIDCSignIn(idSHA256: Digest.sha256(secret), next: "/console/fixes", expiresAt: Date().addingTimeInterval(600))
        #expect(try server.store.takeOIDCSignIn(idSHA256: Digest.sha256(secret), at: Date().addingTimeInterval(601)) == nil)
        try server.store.createOIDCSignIn(idSHA256: Digest.sha256(secret), next: "/console/fixes", expiresAt: Date().addingTimeInterval(600))
        #expect(try server.store.takeOIDCSignIn(idSHA256: Digest.sha256(secret), at: Date()) == "/console/fixes")
        let cookie = ConsoleSessions.oidcCookie(secret, secure: true).value
        #expect(cookie == "vouch_oidc=\(secret); Path=/console/sign-in/oidc/; Max-Age=600; HttpOnly; SameSite=Lax; Secure")
    }

    @Test func aSessionFromTheProviderEndsAtTheIDTokensExpiryAndItsWritesEndWithIt() throws {
        let server = try Self.server()
        let sessions = try #require(server.application.consoleSessions)
        let expiry = Date().addingTimeInterval(120)
        let holder = ConsoleSession.Holder.identityProvider(sessionID: "oidc_test", principal: "ana@example.org", role: .admin)
        let cookie = try sessions.start(holder, for: Requester(name: "ana@example.org", credential: nil), endingNoLaterThan: expiry, secure: false)
        let secret = String(cookie.value.split(separator: ";")[0].dropFirst("vouch_console=".count))
        let stored = try #require(try server.store.consoleSession(idSHA256: Digest.sha256(secret), at: Date()))
        #expect(stored.holder == holder)
        #expect(abs(stored.expiresAt.timeIntervalSince(expiry)) < 0.01, "the ID token's expiry, not the console's 12 hours")
        #expect(try server.store.consoleSession(idSHA256: Digest.sha256(secret), at: expiry.addingTimeInterval(1)) == nil)
        // The console's own limit wins when it comes first.
        let other = ConsoleSession.Holder.identityProvider(sessionID: "oidc_other", principal: "ana@example.org", role: .admin)
        let later = try sessions.start(other, for: Requester(name: "ana@example.org", credential: nil),
                                       endingNoLaterThan: Date().addingTimeInterval(1_000_000), secure: false)
        #expect(later.value.contains("Max-Age=\(sessions.settings.sessionLifetimeSeconds)") || later.value.contains("Max-Age=\(sessions.settings.sessionLifetimeSeconds - 1)"))
        // What she does is recorded as done through the provider, and ends with the session.
        let principal = Principal(name: "ana@example.org", role: .admin, tokenID: "oidc_test", viaIdentityProvider: true)
        let requester = Requester(principal)
        #expect(requester.via == "identity provider sign-in (oidc)")
        let tester = TesterLink(id: "l_x", testerID: "t_none", secretSHA256: Digest.sha256("x"), createdBy: "ana@example.org",
                                createdAt: Date(), expiresAt: Date().addingTimeInterval(60))
        try server.store.deleteConsoleSession(idSHA256: Digest.sha256(secret))
        let ended = try server.store.consoleSession(idSHA256: Digest.sha256(secret), at: Date())
        #expect(ended == nil)
        #expect(throws: CredentialEnded.self) { try server.store.createTesterLink(tester, by: requester) }
    }
}
