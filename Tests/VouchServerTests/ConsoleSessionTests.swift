import Foundation
import Testing
@testable import VouchConsole
import VouchCrypto
@testable import VouchServer
import VouchStore

/// Sign-in, sessions, CSRF and personal links of the web console, through HTTP as a browser sends it.
struct ConsoleSessionTests {
    @Test func signingInWithATokenStartsAStrictHttpOnlySession() throws {
        let server = try InProcessServer()
        let browser = ConsoleBrowser(port: server.port)
        let form = try browser.get("/console/sign-in")
        #expect(form.status == 200)
        #expect(form.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(form.headers["x-content-type-options"] == "nosniff")
        #expect(form.headers["referrer-policy"] == "no-referrer")
        #expect(form.headers["cache-control"] == "no-store")
        let signedIn = try browser.post("/console/sign-in", [("csrf", form.csrf ?? ""), ("token", server.adminToken), ("next", "/console/fixes")])
        #expect(signedIn.status == 303)
        #expect(signedIn.location == "/console/fixes")
        let session = try #require(signedIn.setCookies.first { $0.hasPrefix("vouch_console=") && !$0.contains("Max-Age=0") })
        #expect(session.contains("HttpOnly"))
        #expect(session.contains("SameSite=Strict"))
        #expect(session.contains("Path=/console/"))
        #expect(!session.contains("Secure"), "plain HTTP without a proxy saying otherwise")
        let home = try browser.get("/console/")
        #expect(home.status == 200)
        #expect(home.html.contains("Signed in as admin, administrator"))
        // Only the cookie's hash is stored.
        let cookie = try #require(browser.cookies["vouch_console"])
        #expect(try server.store.consoleSession(idSHA256: Digest.sha256(cookie), at: Date()) != nil)
        let raw = try String(contentsOfFile: server.directory + "/vouch.sqlite3", encoding: .isoLatin1)
        #expect(!raw.contains(cookie))
    }

    @Test func cookiesAreSecureBehindATLSProxy() throws {
        let server = try InProcessServer()
        let browser = ConsoleBrowser(port: server.port)
        let form = try browser.get("/console/sign-in", headers: [("X-Forwarded-Proto", "https")])
        let signedIn = try browser.post("/console/sign-in", [("csrf", form.csrf ?? ""), ("token", server.adminToken), ("next", "")],
                                        headers: [("X-Forwarded-Proto", "https")])
        #expect(signedIn.setCookies.contains { $0.hasPrefix("vouch_console=") && $0.hasSuffix("; Secure") })
    }

    @Test(arguments: ["", "vch_not-a-real-token"])
    func aMissingOrUnknownTokenIsAnErrorOnTheField(token: String) throws {
        let server = try InProcessServer()
        let browser = ConsoleBrowser(port: server.port)
        let form = try browser.get("/console/sign-in")
        let page = try browser.post("/console/sign-in", [("csrf", form.csrf ?? ""), ("token", token), ("next", "")])
        #expect(page.status == 422)
        #expect(page.html.contains("<title>Error: Sign in – Vouch</title>"))
        #expect(page.html.contains("href=\"#field-token\""))
        #expect(browser.cookies["vouch_console"] == nil)
    }

    @Test func aSignInFormPostedFromAnotherSiteIsRefused() throws {
        let server = try InProcessServer()
        // The attacker's page posts its own token: the browser has no sign-in cookie to match the form's field.
        let browser = ConsoleBrowser(port: server.port)
        let page = try browser.post("/console/sign-in", [("csrf", "forged"), ("token", server.adminToken), ("next", "")])
        #expect(page.status == 403)
        #expect(browser.cookies["vouch_console"] == nil)
    }

    @Test func anSDKTokenCannotSignIn() throws {
        let server = try InProcessServer()
        let sdk = try server.token(role: "sdk", name: "ios-app")
        let browser = ConsoleBrowser(port: server.port)
        let form = try browser.get("/console/sign-in")
        let page = try browser.post("/console/sign-in", [("csrf", form.csrf ?? ""), ("token", sdk), ("next", "")])
        #expect(page.status == 422)
        #expect(page.html.contains("only reads flags"))
    }

    @Test func aFormWithoutTheSessionsCSRFTokenChangesNothing() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        for token in ["", "wrong", String(repeating: "a", count: 32)] {
            let page = try browser.post("/console/sign-out", [("csrf", token)])
            #expect(page.status == 403)
        }
        #expect(try browser.get("/console/").status == 200, "still signed in")
        let home = try browser.get("/console/")
        let signOut = try browser.post("/console/sign-out", [("csrf", home.csrf ?? "")])
        #expect(signOut.status == 303)
        #expect(try browser.get("/console/").status == 303, "signed out: sent to sign in")
    }

    @Test func revokingTheTokenEndsItsSessions() throws {
        let server = try InProcessServer()
        let token = try server.token(role: "release_manager", name: "rita")
        let id = try #require(try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue?.first { $0["name"]?.stringValue == "rita" }?["id"]?.stringValue)
        let browser = ConsoleBrowser(port: server.port)
        let form = try browser.get("/console/sign-in")
        _ = try browser.post("/console/sign-in", [("csrf", form.csrf ?? ""), ("token", token), ("next", "")])
        #expect(try browser.get("/console/").status == 200)
        #expect(try server.call("DELETE", "/v1/tokens/\(id)").status == 200)
        let after = try browser.get("/console/")
        #expect(after.status == 303)
        #expect(after.location == "/console/sign-in?next=/console/")
    }

    @Test func aSessionIdleLongerThanTheLimitEnds() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let hash = Digest.sha256(try #require(browser.cookies["vouch_console"]))
        try server.store.touchConsoleSession(idSHA256: hash, at: Date().addingTimeInterval(-86_401))
        #expect(try browser.get("/console/").status == 303)
        #expect(try server.store.consoleSession(idSHA256: hash, at: Date()) == nil, "the idle session was deleted")
    }

    @Test func aPersonalLinkSignsTheTesterInAndLeavesTheSecretBehind() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let link = try server.personalLink(for: tester)
        let browser = ConsoleBrowser(port: server.port)
        // Opening it (as a mail scanner or a chat preview would) signs nobody in: it says whose it is and asks.
        let page = try browser.get(link.path)
        #expect(page.status == 200)
        #expect(page.html.contains("<h1 class=\"heading-l\">Your personal link</h1>"))
        #expect(page.html.contains("Continue as Aiko Tanaka"))
        #expect(browser.cookies["vouch_console"] == nil)
        #expect(try server.store.consoleSessionCount(link: link.id) == 0)
        let opened = try browser.post(link.path, [("csrf", try #require(page.csrf))])
        #expect(opened.status == 303)
        #expect(opened.location == "/console/welcome")
        #expect(opened.headers["referrer-policy"] == "no-referrer")
        let home = try browser.get("/console/")
        #expect(home.status == 200)
        #expect(home.html.contains("<h1 class=\"heading-l\">Your fixes</h1>"))
        #expect(home.html.contains("Signed in as a tester"))
        #expect(!home.html.contains("Aiko"), "the page never needs her name")
        // The listing shows the link without its address; the audit log names the link, not the secret.
        let listed = try server.call("GET", "/v1/testers/\(tester)/links")
        #expect(listed.json["links"]?.arrayValue?.first?["status"]?.stringValue == "active")
        #expect(!listed.text.contains(String(link.path.dropFirst("/console/link/".count))))
    }

    @Test func revokingALinkOrWithdrawingEndsTheTestersSession() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let link = try server.personalLink(for: tester)
        let browser = ConsoleBrowser(port: server.port)
        _ = try browser.openLink(link.path)
        #expect(try browser.get("/console/").status == 200)
        #expect(try server.call("DELETE", "/v1/testers/\(tester)/links/\(link.id)").status == 200)
        #expect(try browser.get("/console/").status == 303)
        #expect(try browser.get(link.path).status == 404)

        let second = try server.testerBrowser(tester)
        #expect(try second.get("/console/").status == 200)
        #expect(try server.call("POST", "/v1/testers/\(tester)/withdraw", json: "{}").status == 200)
        #expect(try second.get("/console/").status == 303)
        #expect(try server.store.testerLinks(of: tester).isEmpty, "withdrawal deletes her links")
    }

    @Test func anExpiredOrUnknownLinkOpensNothing() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let secret = "expired-link-secret-0123456789abcdefghijklm"
        try server.store.createTesterLink(TesterLink(id: "l_expired", testerID: tester, secretSHA256: Digest.sha256(secret), createdBy: "admin",
                                                     createdAt: Date().addingTimeInterval(-7_200), expiresAt: Date().addingTimeInterval(-3_600)), by: "maria")
        let browser = ConsoleBrowser(port: server.port)
        let expired = try browser.get("/console/link/\(secret)")
        #expect(expired.status == 404)
        #expect(expired.html.contains("Ask the person who sent it to you for a new one"))
        #expect(try browser.get("/console/link/unknown").status == 404)
        #expect(browser.cookies["vouch_console"] == nil)
    }

    @Test(arguments: ["0s", "91d", "soon"])
    func aLinksValidityMustBeBetweenAnHourAndNinetyDays(validFor: String) throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let answer = try server.call("POST", "/v1/testers/\(tester)/links", json: #"{"valid_for":"\#(validFor)"}"#)
        #expect(answer.status == 422)
        #expect(answer.errorFields == ["valid_for"])
    }

    @Test func signInReturnsOnlyToConsolePages() {
        #expect(SignInPages.safeNext("/console/fixes/a") == "/console/fixes/a")
        for next in ["https://evil.example", "//evil.example", "/console//evil.example", "/v1/tokens", "/console/\\evil", "/console/a b"] {
            #expect(SignInPages.safeNext(next) == nil, "\(next)")
        }
    }

    @Test func unknownConsoleAddressesAnswerAnHTMLPage() throws {
        let server = try InProcessServer()
        let page = try ConsoleBrowser(port: server.port).get("/console/no/such/page")
        #expect(page.status == 404)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.html.contains("Page not found"))
        #expect(page.headers["content-security-policy"] != nil)
        #expect(!page.html.contains("<nav class=\"navigation\""), "nobody is signed in")
    }

    @Test func anUnknownAddressKeepsTheSignedInNavigation() throws {
        let server = try InProcessServer()
        let page = try server.signedInBrowser().get("/console/no/such/page")
        #expect(page.status == 404)
        #expect(page.html.contains("<nav class=\"navigation\" aria-label=\"Console\">"))
        #expect(page.html.contains("Signed in as admin, administrator"))
        #expect(page.html.contains("Sign out"))
    }
}

extension ConsoleSessionTests {
    @Test func theSweepDeletesEndedSessionsOnly() throws {
        let server = try InProcessServer()
        let idle = try server.signedInBrowser()
        let active = try server.signedInBrowser()
        let idleHash = Digest.sha256(try #require(idle.cookies["vouch_console"]))
        try server.store.touchConsoleSession(idSHA256: idleHash, at: Date().addingTimeInterval(-2 * 86_400))
        let sessions = try #require(server.application.consoleSessions)
        #expect(try sessions.sweep() == 1)
        #expect(try active.get("/console/").status == 200)
        #expect(try idle.get("/console/").status == 303)
    }
}
