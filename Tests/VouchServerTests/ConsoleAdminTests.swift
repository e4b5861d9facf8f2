import Foundation
import Synchronization
import Testing
@testable import VouchDaemon
import VouchDomain
import VouchJSON
@testable import VouchServer
import VouchTestSupport
import VouchWebhooks

/// The administrator's console pages through HTTP as a browser sends them: webhooks with their deliveries, and tokens,
/// each change made through the API, each secret shown once.
@Suite struct ConsoleAdminTests {
    // MARK: - Webhooks

    @Test func theWebhooksPageIsReachedFromHomeAndOffersToAddOne() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let home = try browser.get("/console/")
        #expect(home.html.contains("href=\"/console/webhooks\"") && home.html.contains("href=\"/console/tokens\""))
        let list = try browser.get("/console/webhooks")
        #expect(list.status == 200)
        #expect(list.html.contains("<title>Webhooks – Vouch</title>"))
        #expect(list.html.contains("<a href=\"/console/webhooks/new\" class=\"button\">Add a webhook</a>"))
        #expect(list.html.contains("No webhook yet"))
        let form = try browser.get("/console/webhooks/new")
        #expect(form.status == 200)
        for label in ["<label class=\"label\" for=\"field-url\">URL</label>", "Which events should it receive?", "Choose none to receive every event",
                      "Should promotions wait for it?", "Should it receive events from now on?"] {
            #expect(form.html.contains(label), "\(label)")
        }
        #expect(!form.html.contains(" checked"), "no radio or checkbox is chosen for the person")
    }

    @Test func aWebhookFormWithProblemsSaysWhichKeepsWhatWasEnteredAndAddsNothing() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let csrf = try #require(try browser.get("/console/webhooks/new").csrf)
        let empty = try browser.post("/console/webhooks/new", [("csrf", csrf)])
        #expect(empty.status == 422)
        #expect(empty.html.contains("<title>Error: Add a webhook – Vouch</title>"))
        for field in ["url", "required", "enabled"] { #expect(empty.html.contains("href=\"#field-\(field)\""), "\(field)") }

        // The API refuses the address: its words are shown on the URL field, and every answer stays as entered.
        let refused = try browser.post("/console/webhooks/new", [("csrf", csrf), ("url", "http://127.0.0.1:0/hook"), ("events", "fix.paused"),
                                                                 ("events", "fix.resumed"), ("required", "true"), ("enabled", "false")])
        #expect(refused.status == 422)
        #expect(refused.html.contains("<a href=\"#field-url\">URL "), "\(refused.html)")
        #expect(refused.html.contains("port from 1 to 65535"))
        #expect(refused.html.contains("id=\"field-url-error\""))
        #expect(refused.html.contains("value=\"http://127.0.0.1:0/hook\""))
        #expect(refused.html.contains("value=\"fix.paused\" checked") && refused.html.contains("value=\"fix.resumed\" checked"))
        #expect(!refused.html.contains("value=\"fix.created\" checked"))
        #expect(refused.html.contains("name=\"required\" type=\"radio\" value=\"true\" checked"))
        #expect(refused.html.contains("name=\"enabled\" type=\"radio\" value=\"false\" checked"))
        #expect(try server.call("GET", "/v1/webhooks").json["webhooks"]?.arrayValue?.isEmpty == true)
    }

    @Test func aHostThatDoesNotResolveIsAProblemOnTheURLField() throws {
        let resolver = HostResolver(threadCount: 1, maxThreads: 1, queueLimit: 4) { _ in .notFound }
        let server = try InProcessServer(hostResolver: resolver)
        let browser = try server.signedInBrowser()
        let csrf = try #require(try browser.get("/console/webhooks/new").csrf)
        let page = try browser.post("/console/webhooks/new", [("csrf", csrf), ("url", "https://nxdomain.test/hook"), ("required", "false"),
                                                              ("enabled", "true")])
        #expect(page.status == 422)
        #expect(page.html.contains("<a href=\"#field-url\">URL: the host name &#39;nxdomain.test&#39; does not resolve"), "\(page.html)")
    }

    @Test func anAddedWebhooksSecretIsShownOnceAndSignsItsDeliveries() throws {
        let receiver = try WebhookReceiver()
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let csrf = try #require(try browser.get("/console/webhooks/new").csrf)
        let answer = try browser.post("/console/webhooks/new", [("csrf", csrf), ("url", receiver.url), ("events", "fix.created"), ("required", "true"),
                                                                ("enabled", "true")])
        #expect(answer.status == 303, "the form's answer is a redirect, so a reload repeats a GET, never the POST")
        let added = try browser.follow(answer)
        #expect(added.status == 200)
        #expect(added.html.contains("class=\"banner banner--success\""))
        #expect(added.html.contains("<h2 class=\"heading-m\" id=\"one-time-secret\">Signing secret</h2>"))
        #expect(added.html.contains("it will not be shown again"))
        let secret = try #require(Self.secret(in: added.html, prefix: "whsec_"))
        let stored = try #require(try server.call("GET", "/v1/webhooks").json["webhooks"]?.arrayValue?.first)
        #expect(stored["url"]?.stringValue == receiver.url)
        #expect(stored["events"] == .strings(["fix.created"]))
        #expect(stored["required"] == .bool(true) && stored["enabled"] == .bool(true))
        let id = try #require(stored["id"]?.stringValue)

        // The webhook's page and the list never show the secret again.
        let list = try browser.get("/console/webhooks")
        #expect(list.html.contains(receiver.url) && list.html.contains("href=\"/console/webhooks/\(id)\""))
        let details = try browser.get("/console/webhooks/\(id)")
        #expect(details.status == 200)
        #expect(details.html.contains("A fix is created (fix.created)"))
        for page in [list, details] { #expect(!page.html.contains(secret)) }
        let reloaded = try browser.get(try #require(answer.location))
        #expect(reloaded.html.contains("This secret is no longer shown") && !reloaded.html.contains(secret), "a reload shows the secret no more")
        #expect(try server.call("GET", "/v1/webhooks").json["webhooks"]?.arrayValue?.count == 1, "and makes no second webhook")

        try server.createChannelSelectorFix()
        let received = try #require(receiver.wait(forType: "fix.created").first)
        #expect(WebhookReceiver.verify(received, secret: secret))
    }

    @Test func aTestEventGoesOutAndAFailedDeliveryIsRedelivered() throws {
        // The receiver fails every request until the test says otherwise; test settings retry twice within a second.
        let failing = Switch(true)
        let receiver = try WebhookReceiver { _ in WebhookReceiver.Answer(status: failing.isOn ? 500 : 200) }
        let server = try InProcessServer()
        let id = try Self.webhook(server, url: receiver.url)
        let browser = try server.signedInBrowser()
        let page = try browser.get("/console/webhooks/\(id)")
        #expect(page.html.contains("Nothing has been sent to this webhook yet."))
        let tested = try browser.post("/console/webhooks/\(id)/test", [("csrf", page.csrf ?? "")])
        #expect(tested.status == 303 && tested.location == "/console/webhooks/\(id)?done=tested")
        #expect(receiver.wait(forType: "webhook.test").contains { $0.type == "webhook.test" })

        let dead = try #require(try Self.waitForDelivery(server, endpoint: id, status: .dead))
        let withDead = try browser.get("/console/webhooks/\(id)")
        #expect(withDead.html.contains("Failed, no more retries"))
        #expect(withDead.html.contains("answered 500"))
        // Said as words and a short id: the button's name is heard, never typed.
        #expect(withDead.html.contains("Redeliver<span class=\"visually-hidden\"> the delivery ending \(dead.id.suffix(7)): a test event</span>"))
        let failedOnly = try browser.get("/console/webhooks/\(id)?status=dead")
        #expect(failedOnly.html.contains("Deliveries: failed only") && failedOnly.html.contains(dead.id))
        #expect(try browser.get("/console/webhooks/\(id)?status=succeeded").html.contains("No delivery has this status."))

        failing.isOn = false
        let redelivered = try browser.post("/console/webhooks/\(id)/deliveries/\(dead.id)/redeliver", [("csrf", page.csrf ?? "")])
        #expect(redelivered.status == 303 && redelivered.location == "/console/webhooks/\(id)?done=redelivered")
        #expect(try browser.get(redelivered.location ?? "").html.contains("The delivery is queued again"))
        #expect(try Self.waitForDelivery(server, endpoint: id, status: .succeeded)?.id == dead.id)
        #expect(try browser.get("/console/webhooks/\(id)").html.contains("Delivered"))
        // A delivery that succeeded cannot be redelivered: the API's words, on the console's error page.
        let again = try browser.post("/console/webhooks/\(id)/deliveries/\(dead.id)/redeliver", [("csrf", page.csrf ?? "")])
        #expect(again.status == 409)
        #expect(again.html.contains("only dead or cancelled deliveries can be redelivered"))
    }

    @Test func disablingSaysWhatStopsAndEnablingTurnsItBackOn() throws {
        let server = try InProcessServer()
        let id = try Self.webhook(server, url: "http://127.0.0.1:9/hook", required: true)
        let browser = try server.signedInBrowser()
        let details = try browser.get("/console/webhooks/\(id)")
        #expect(details.html.contains("<a href=\"/console/webhooks/\(id)/disable\">Disable this webhook</a>"))
        let confirm = try browser.get("/console/webhooks/\(id)/disable")
        #expect(confirm.status == 200)
        #expect(confirm.html.contains("<h1 class=\"heading-l\">Disable the webhook to http://127.0.0.1:9/hook?</h1>"))
        #expect(confirm.html.contains("fails its promotion"))
        #expect(confirm.html.contains("class=\"button button--warning\">Disable the webhook</button>"))
        let disabled = try browser.post("/console/webhooks/\(id)/disable", [("csrf", confirm.csrf ?? "")])
        #expect(disabled.status == 303 && disabled.location == "/console/webhooks/\(id)?done=disabled")
        #expect(try server.call("GET", "/v1/webhooks/\(id)").json["enabled"] == .bool(false))
        let off = try browser.get("/console/webhooks/\(id)?done=disabled")
        #expect(off.html.contains("The webhook is disabled") && off.html.contains(">Disabled</strong>"))
        #expect(off.html.contains(">Enable this webhook</button>") && !off.html.contains("Send a test event"))
        let enabled = try browser.post("/console/webhooks/\(id)/enable", [("csrf", off.csrf ?? "")])
        #expect(enabled.status == 303 && enabled.location == "/console/webhooks/\(id)?done=enabled")
        #expect(try server.call("GET", "/v1/webhooks/\(id)").json["enabled"] == .bool(true))
    }

    @Test func deletingAWebhookIsConfirmedFirst() throws {
        let server = try InProcessServer()
        let id = try Self.webhook(server, url: "http://127.0.0.1:9/hook")
        let browser = try server.signedInBrowser()
        let confirm = try browser.get("/console/webhooks/\(id)/delete")
        #expect(confirm.html.contains("Delete the webhook to http://127.0.0.1:9/hook?"))
        #expect(confirm.html.contains("it cannot be enabled again"))
        #expect(try server.call("GET", "/v1/webhooks/\(id)").status == 200, "opening the confirmation changes nothing")
        let deleted = try browser.post("/console/webhooks/\(id)/delete", [("csrf", confirm.csrf ?? "")])
        #expect(deleted.status == 303 && deleted.location == "/console/webhooks?done=deleted")
        let list = try browser.get("/console/webhooks?done=deleted")
        #expect(list.html.contains("The webhook is deleted") && !list.html.contains("127.0.0.1:9"))
        #expect(try browser.get("/console/webhooks/\(id)").status == 404)
        #expect(try browser.get("/console/webhooks/we_nosuchwebhook00").status == 404)
    }

    // MARK: - Tokens

    @Test func tokensAreListedWithTheirRoleInWords() throws {
        let server = try InProcessServer()
        _ = try server.token(role: "release_manager", name: "rita")
        let browser = try server.signedInBrowser()
        let list = try browser.get("/console/tokens")
        #expect(list.status == 200)
        #expect(list.html.contains("<a href=\"/console/tokens/new\" class=\"button\">Create a token</a>"))
        #expect(list.html.contains("<td>release manager</td>") && list.html.contains("<td>administrator</td>"))
        #expect(list.html.contains("Revoke<span class=\"visually-hidden\"> the token rita</span>"))
        let form = try browser.get("/console/tokens/new")
        #expect(form.status == 200)
        for text in ["for=\"field-name\">Name</label>", "What may it do?", "Release manager", "Approves or rejects fixes",
                     "for=\"field-tester\">Tester id (only for the role tester)</label>", "for=\"field-principal\">Issued to (optional)</label>"] {
            #expect(form.html.contains(text), "\(text)")
        }
        #expect(!form.html.contains(" checked"))
    }

    @Test func aTokenFormWithProblemsSaysWhichAndKeepsWhatWasEntered() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let csrf = try #require(try browser.get("/console/tokens/new").csrf)
        let empty = try browser.post("/console/tokens/new", [("csrf", csrf), ("name", ""), ("role", ""), ("tester", ""), ("principal", "")])
        #expect(empty.status == 422)
        #expect(empty.html.contains("<title>Error: Create a token – Vouch</title>"))
        #expect(empty.html.contains("<a href=\"#field-name\">Name is required"))
        #expect(empty.html.contains("<a href=\"#field-role\">Choose what the token may do</a>"))

        let testerless = try browser.post("/console/tokens/new", [("csrf", csrf), ("name", "ana-phone"), ("role", "tester"), ("tester", ""),
                                                                  ("principal", "")])
        #expect(testerless.status == 422)
        #expect(testerless.html.contains("<a href=\"#field-tester\">Tester id: a tester token must name its tester"))
        #expect(testerless.html.contains("value=\"ana-phone\"") && testerless.html.contains("value=\"tester\" checked"))
        let tokens = try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue ?? []
        #expect(tokens.count == 1, "only the admin token")
    }

    @Test func aCreatedTokensSecretIsShownOnceAndWorks() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let csrf = try #require(try browser.get("/console/tokens/new").csrf)
        let answer = try browser.post("/console/tokens/new", [("csrf", csrf), ("name", "rita-laptop"), ("role", "release_manager"), ("tester", ""),
                                                              ("principal", "Rita")])
        #expect(answer.status == 303)
        let created = try browser.follow(answer)
        #expect(created.status == 200)
        #expect(created.headers["cache-control"] == "no-store")
        #expect(created.html.contains("The token rita-laptop is created"))
        #expect(created.html.contains("<dd class=\"summary-list__value\">rita</dd>"), "the principal, normalised")
        #expect(created.html.contains("it will not be shown again"))
        let secret = try #require(Self.secret(in: created.html, prefix: "vch_"))
        #expect(try server.call("GET", "/v1/fixes", token: .some(secret)).status == 200)
        #expect(!(try browser.get("/console/tokens").html.contains(secret)))
        let reloaded = try browser.get(try #require(answer.location))
        #expect(reloaded.status == 200 && reloaded.html.contains("This secret is no longer shown") && !reloaded.html.contains(secret))
        #expect(try server.store.tokens(after: nil, limit: 10).count == 2, "the admin's and rita's: a reload made no other")
        let elsewhere = try server.signedInBrowser()
        #expect(!(try elsewhere.get(try #require(answer.location)).html.contains("vch_")), "another session never sees it")

        let tester = try server.createTester()
        let testerToken = try browser.follow(try browser.post("/console/tokens/new", [("csrf", csrf), ("name", "aiko-phone"), ("role", "tester"),
                                                                                      ("tester", tester), ("principal", "")]))
        #expect(testerToken.status == 200)
        #expect(testerToken.html.contains("tester, for tester \(tester)"))
    }

    @Test func revokingSaysWhatStopsAndEndsTheTokensSessions() throws {
        let server = try InProcessServer()
        let rita = try server.signedInBrowser(role: "release_manager", name: "rita")
        let id = try #require(try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue?.first { $0["name"] == .string("rita") }?["id"]?.stringValue)
        let browser = try server.signedInBrowser()
        let confirm = try browser.get("/console/tokens/\(id)/revoke")
        #expect(confirm.status == 200)
        #expect(confirm.html.contains("<h1 class=\"heading-l\">Revoke the token rita?</h1>"))
        #expect(confirm.html.contains("The person, app or script that uses it is refused from now on."))
        #expect(confirm.html.contains("Every console session signed in with it ends at once."))
        #expect(confirm.html.contains("class=\"button button--warning\">Revoke the token</button>"))
        #expect(try rita.get("/console/").status == 200, "opening the confirmation changes nothing")
        let revoked = try browser.post("/console/tokens/\(id)/revoke", [("csrf", confirm.csrf ?? "")])
        #expect(revoked.status == 303 && revoked.location == "/console/tokens?done=revoked")
        #expect(try browser.get("/console/tokens?done=revoked").html.contains("The token is revoked"))
        #expect(try rita.get("/console/").status == 303, "her session ended with her token")
        #expect(try browser.get("/console/tokens/\(id)/revoke").status == 404, "a revoked token cannot be revoked again")
    }

    @Test func theLastAdminTokenIsKeptAndTheAPIsWordsSayWhy() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let admin = try #require(try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue?.first?["id"]?.stringValue)
        let confirm = try browser.get("/console/tokens/\(admin)/revoke")
        #expect(confirm.html.contains("This is the token you signed in with: you will be signed out."))
        let refused = try browser.post("/console/tokens/\(admin)/revoke", [("csrf", confirm.csrf ?? "")])
        #expect(refused.status == 409)
        #expect(refused.html.contains("The token was not revoked"))
        #expect(refused.html.contains("Vouch refused: \(admin) is the last active admin token; create another admin token before revoking this one."))
        #expect(!refused.html.contains("Revoke the token</button>"))
        #expect(try browser.get("/console/").status == 200, "still signed in")

        // With a second admin token, revoking one's own signs one out.
        _ = try server.token(role: "admin", name: "second-admin")
        let own = try browser.post("/console/tokens/\(admin)/revoke", [("csrf", confirm.csrf ?? "")])
        #expect(own.status == 303 && own.location == "/console/signed-out")
        #expect(try browser.get("/console/").status == 303)
    }

    // MARK: - Who may

    static let pages = ["/console/webhooks", "/console/webhooks/new", "/console/tokens", "/console/tokens/new"]

    @Test(arguments: ["maintainer", "release_manager"])
    func onlyAdministratorsOpenThesePages(role: String) throws {
        let server = try InProcessServer()
        let webhook = try Self.webhook(server, url: "http://127.0.0.1:9/hook")
        let token = try #require(try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue?.first?["id"]?.stringValue)
        let browser = try server.signedInBrowser(role: role)
        #expect(!(try browser.get("/console/").html.contains("href=\"/console/webhooks\"")), "no link to what the role cannot open")
        for path in Self.pages + ["/console/webhooks/\(webhook)", "/console/webhooks/\(webhook)/delete", "/console/tokens/\(token)/revoke"] {
            let page = try browser.get(path)
            #expect(page.status == 403, "\(path)")
            #expect(page.html.contains("You cannot do this"), "\(path)")
        }
        let csrf = try #require(try browser.get("/console/").csrf)
        for path in ["/console/webhooks/new", "/console/webhooks/\(webhook)/delete", "/console/tokens/\(token)/revoke", "/console/tokens/new"] {
            #expect(try browser.post(path, [("csrf", csrf), ("name", "x"), ("role", "admin")]).status == 403, "\(path)")
        }
        #expect(try server.call("GET", "/v1/webhooks/\(webhook)").status == 200)
        #expect(try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue?.count == 2)
    }

    @Test func aFormWithoutTheSessionsCSRFTokenChangesNothing() throws {
        let receiver = try WebhookReceiver()
        let server = try InProcessServer()
        let webhook = try Self.webhook(server, url: receiver.url)
        let token = try server.call("POST", "/v1/tokens", json: #"{"name":"spare","role":"sdk"}"#).json["id"]?.stringValue ?? ""
        let browser = try server.signedInBrowser()
        let posts: [(String, [(String, String)])] = [
            ("/console/webhooks/new", [("url", receiver.url), ("required", "false"), ("enabled", "true")]),
            ("/console/webhooks/\(webhook)/test", []), ("/console/webhooks/\(webhook)/disable", []), ("/console/webhooks/\(webhook)/delete", []),
            ("/console/tokens/new", [("name", "sneaky"), ("role", "admin")]), ("/console/tokens/\(token)/revoke", []),
        ]
        for (path, fields) in posts {
            for csrf in [nil, "forged"] {
                let page = try browser.post(path, fields + (csrf.map { [("csrf", $0)] } ?? []))
                #expect(page.status == 403, "\(path) with \(csrf ?? "no token")")
            }
        }
        #expect(try server.call("GET", "/v1/webhooks").json["webhooks"]?.arrayValue?.count == 1)
        #expect(try server.call("GET", "/v1/webhooks/\(webhook)").json["enabled"] == .bool(true))
        #expect(receiver.requests.isEmpty, "no test event went out")
        let tokens = try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue ?? []
        #expect(tokens.count == 2 && tokens.allSatisfy { $0["revoked_at"] == .null })
    }

    // MARK: - Helpers

    /// A webhook added through the API; returns its id.
    static func webhook(_ server: InProcessServer, url: String, required: Bool = false) throws -> String {
        let answer = try server.call("POST", "/v1/webhooks", json: JSONWriter.string(.object(["url": .string(url), "required": .bool(required)])))
        guard answer.status == 201, let id = answer.json["id"]?.stringValue else { throw DaemonError("webhook creation failed: \(answer.text)") }
        return id
    }

    /// The first delivery of the endpoint in `status`, waiting up to ten seconds for one.
    static func waitForDelivery(_ server: InProcessServer, endpoint: String, status: WebhookDelivery.Status) throws -> WebhookDelivery? {
        let deadline = Date().addingTimeInterval(10)
        repeat {
            if let found = try server.store.deliveries(endpoint: endpoint, status: status, after: nil, limit: 1).first { return found }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    /// The value in the page's `.secret` box, if it starts with `prefix`.
    static func secret(in html: String, prefix: String) -> String? {
        guard let start = html.range(of: "<p class=\"secret\"><code>") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.range(of: "</code>"), rest.hasPrefix(prefix) else { return nil }
        return String(rest[..<end.lowerBound])
    }

    /// A switch the test flips while a receiver's handler threads read it.
    final class Switch: Sendable {
        private let state: Mutex<Bool>

        init(_ isOn: Bool) { state = Mutex(isOn) }

        var isOn: Bool {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }
}
