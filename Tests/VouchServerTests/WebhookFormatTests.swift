import Foundation
import Testing
import VouchJSON
@testable import VouchServer
import VouchServerKit
import VouchTestSupport
import VouchWebhooks

/// Webhook formats (docs/contracts.md, "Formats"): what each sends, exactly, to receivers on loopback; only
/// `standard` is signed and only it may be required; a GitHub token is read from its file and kept nowhere.
@Suite(.serialized) struct WebhookFormatTests {
    static let fix = "tv-channel-selector-labels"
    static let token = "ghp_vouchTestToken0123456789"
    static let consoleURL = "https://vouch.example.org"

    /// A server whose github-dispatch token files are in `tokens`, with `console.public_url` set (or not).
    static func server(tokens: TemporaryDirectory, consoleURL: String = WebhookFormatTests.consoleURL) throws -> InProcessServer {
        var settings = InProcessServer.testSettings()
        settings.delivery.shaping = WebhookRequest.Shaping(tokenDirectory: tokens.path)
        settings.console.publicURL = consoleURL
        return try InProcessServer(settings: settings)
    }

    static func add(_ server: InProcessServer, _ body: JSONObject) throws -> InProcessServer.Answer {
        try server.call("POST", "/v1/webhooks", json: JSONWriter.string(.object(body)))
    }

    @Test func eachFormatSendsExactlyItsOwnRequest() throws {
        let tokens = try TemporaryDirectory("vouch-webhook-tokens")
        try (Self.token + "\n").write(toFile: tokens.file("github-deploy.token"), atomically: true, encoding: .utf8)
        let standard = try WebhookReceiver(), github = try WebhookReceiver(), slack = try WebhookReceiver()
        let server = try Self.server(tokens: tokens)
        let events: JSONValue = .strings(["fix.created", "fix.promoted"])
        let added = try Self.add(server, ["url": .string(standard.url), "events": events])
        #expect(added.status == 201)
        let secret = try #require(added.json["secret"]?.stringValue)
        #expect(added.json["format"]?.stringValue == "standard")
        let dispatches = github.url(path: "/repos/example-org/tv.app/dispatches")
        let dispatch = try Self.add(server, ["url": .string(dispatches), "events": events, "format": .string("github-dispatch"),
                                             "token_file": .string("github-deploy.token")])
        #expect(dispatch.status == 201, "\(dispatch.text)")
        #expect(dispatch.json["format"]?.stringValue == "github-dispatch")
        #expect(dispatch.json["token_file"]?.stringValue == "github-deploy.token")
        let chat = try Self.add(server, ["url": .string(slack.url(path: "/services/T000/B000/XXXX")), "events": events, "format": .string("slack")])
        #expect(chat.status == 201, "\(chat.text)")

        try server.createChannelSelectorFix()
        let signed = try #require(standard.wait(for: 1).first)
        let dispatched = try #require(github.wait(for: 1).first)
        let posted = try #require(slack.wait(for: 1).first)

        // Standard Webhooks: the stored body, signed, and nothing GitHub's.
        #expect(signed.method == "POST" && signed.target == "/hooks/vouch")
        #expect(signed.headers["content-type"] == "application/json")
        #expect(WebhookReceiver.verify(signed, secret: secret))
        #expect(signed.headers["authorization"] == nil && signed.headers["x-github-api-version"] == nil)
        #expect(signed.headers["accept"] != "application/vnd.github+json")
        #expect(signed.type == "fix.created")

        // A repository dispatch: GitHub's headers, the token from its file, the event's own body inside, no signature.
        #expect(dispatched.method == "POST" && dispatched.target == "/repos/example-org/tv.app/dispatches")
        #expect(dispatched.headers["authorization"] == "Bearer " + Self.token)
        #expect(dispatched.headers["accept"] == "application/vnd.github+json")
        #expect(dispatched.headers["x-github-api-version"] == "2022-11-28")
        #expect(dispatched.headers["content-type"] == "application/json")
        #expect(dispatched.headers["user-agent"] == "vouchd-webhooks/1")
        for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] { #expect(dispatched.headers[name] == nil, "\(name)") }
        let expected = #"{"event_type":"vouch.fix.created","client_payload":{"id":""# + signed.id + #"","# + String(decoding: signed.body.dropFirst(), as: UTF8.self) + "}"
        #expect(String(decoding: dispatched.body, as: UTF8.self) == expected)
        #expect(try JSONParser.parse(dispatched.body)["client_payload"]?["data"]?["fix"]?.stringValue == Self.fix)

        // Slack: one member, text in words with a link to the fix's console page; no signature, no token.
        #expect(posted.method == "POST" && posted.target == "/services/T000/B000/XXXX")
        #expect(posted.headers["content-type"] == "application/json")
        for name in ["webhook-id", "webhook-timestamp", "webhook-signature", "authorization"] { #expect(posted.headers[name] == nil, "\(name)") }
        let message = try JSONParser.parse(posted.body)
        #expect(message.objectValue?.keys == ["text"])
        #expect(message["text"]?.stringValue == """
            Vouch: fix \(Self.fix) was created.
            <\(Self.consoleURL)/console/fixes/\(Self.fix)|Open fix \(Self.fix) in the Vouch console>
            """)

        // The token is kept nowhere Vouch writes: not in answers, the audit log or the database file.
        let listed = try server.call("GET", "/v1/webhooks").text + (try server.call("GET", "/v1/audit").text)
        #expect(!listed.contains(Self.token))
        for name in try FileManager.default.contentsOfDirectory(atPath: server.directory) where name.hasPrefix("vouch.sqlite3") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: server.directory + "/" + name))
            #expect(bytes.range(of: Data(Self.token.utf8)) == nil, "\(name)")
        }
    }

    @Test func aPromotionDispatchesAndTellsTheChannelWithoutWaitingForThem() throws {
        let tokens = try TemporaryDirectory("vouch-webhook-tokens")
        try (Self.token + "\n").write(toFile: tokens.file("deploy"), atomically: true, encoding: .utf8)
        let github = try WebhookReceiver(), slack = try WebhookReceiver()
        let server = try Self.server(tokens: tokens)
        let events: JSONValue = .strings(["fix.promoted", "fix.released"])
        #expect(try Self.add(server, ["url": .string(github.url(path: "/api/v3/repos/example/app/dispatches")), "format": .string("github-dispatch"),
                                      "token_file": .string("deploy"), "events": events]).status == 201)
        #expect(try Self.add(server, ["url": .string(slack.url), "format": .string("slack"), "events": events]).status == 201)
        let story = PromotionTests()
        try story.fixWithPassingTesters(server, testers: 1)
        try story.approve(server)
        // No required endpoint: the fix is released at once, and both receivers hear of it.
        #expect(try story.waitForState(server, Self.fix, "released") == "released")
        let dispatched = github.wait(for: 2)
        #expect(dispatched.compactMap { (try? JSONParser.parse($0.body))?["event_type"]?.stringValue }.sorted() == ["vouch.fix.promoted", "vouch.fix.released"])
        #expect(dispatched.allSatisfy { $0.target == "/api/v3/repos/example/app/dispatches" })
        let texts = slack.wait(for: 2).compactMap { (try? JSONParser.parse($0.body))?["text"]?.stringValue }
        let released = try #require(texts.first { $0.contains("is released to everyone") }, "\(texts)")
        #expect(released.hasPrefix("Vouch: fix \(Self.fix) (revision 1) is released to everyone.\nEvidence: 1 tester passed"), "\(released)")
        #expect(!texts.joined().contains("Tester 0"), "a message never names a tester")
    }

    @Test func onlyStandardMayBeRequiredAndEachFormatSaysWhatItNeeds() throws {
        let tokens = try TemporaryDirectory("vouch-webhook-tokens")
        try (Self.token + "\n").write(toFile: tokens.file("deploy"), atomically: true, encoding: .utf8)
        let server = try Self.server(tokens: tokens)
        let dispatches = "http://127.0.0.1:9/repos/example/app/dispatches"
        func refused(_ body: JSONObject) throws -> [String] {
            let answer = try Self.add(server, body)
            #expect(answer.status == 422, "\(answer.text)")
            return answer.errorFields
        }
        #expect(try refused(["url": .string("http://127.0.0.1:9/hook"), "format": .string("slack"), "required": .bool(true)]) == ["required"])
        #expect(try refused(["url": .string(dispatches), "format": .string("github-dispatch"), "token_file": .string("deploy"),
                             "required": .bool(true)]) == ["required"])
        #expect(try refused(["url": .string(dispatches), "format": .string("github-dispatch")]) == ["token_file"])
        #expect(try refused(["url": .string(dispatches), "format": .string("github-dispatch"), "token_file": .string("../deploy")]) == ["token_file"])
        #expect(try refused(["url": .string(dispatches), "format": .string("github-dispatch"), "token_file": .string("missing")]) == ["token_file"])
        #expect(try refused(["url": .string("http://127.0.0.1:9/hook"), "format": .string("github-dispatch"), "token_file": .string("deploy")]) == ["url"])
        #expect(try refused(["url": .string("http://127.0.0.1:9/hook"), "token_file": .string("deploy")]) == ["token_file"])
        #expect(try refused(["url": .string("http://127.0.0.1:9/hook"), "format": .string("teams")]) == ["format"])
        let unknown = try Self.add(server, ["url": .string("http://127.0.0.1:9/hook"), "format": .string("teams")])
        #expect(unknown.json["errors"]?.arrayValue?.first?["message"]?.stringValue == "'teams' is not a format; allowed: standard, github-dispatch, slack")

        // A change that would make a required webhook a Slack one, or a Slack one required, is refused too.
        let required = try Self.add(server, ["url": .string("http://127.0.0.1:9/hook"), "required": .bool(true)])
        let requiredID = try #require(required.json["id"]?.stringValue)
        let change = try server.call("PATCH", "/v1/webhooks/\(requiredID)", json: #"{"format":"slack"}"#)
        #expect(change.status == 422 && change.errorFields == ["format"])
        #expect(change.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("cannot be required for promotion") == true)
        let chat = try Self.add(server, ["url": .string("http://127.0.0.1:9/hook"), "format": .string("slack")])
        let chatID = try #require(chat.json["id"]?.stringValue)
        #expect(try server.call("PATCH", "/v1/webhooks/\(chatID)", json: #"{"required":true}"#).errorFields == ["required"])
        #expect(try server.call("PATCH", "/v1/webhooks/\(requiredID)", json: #"{"format":"slack","required":false}"#).json["format"]?.stringValue == "slack")

        // Slack messages link to the console: without console.public_url there is nowhere to link to.
        let bare = try Self.server(tokens: tokens, consoleURL: "")
        let noLinks = try Self.add(bare, ["url": .string("http://127.0.0.1:9/hook"), "format": .string("slack")])
        #expect(noLinks.status == 422 && noLinks.errorFields == ["format"])
    }

    @Test func aTokenFileThatCannotBeReadFailsTheAttemptAndIsRetried() throws {
        let tokens = try TemporaryDirectory("vouch-webhook-tokens")
        let file = tokens.file("deploy")
        try (Self.token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let github = try WebhookReceiver()
        let server = try Self.server(tokens: tokens)
        let added = try Self.add(server, ["url": .string(github.url(path: "/repos/example/app/dispatches")), "format": .string("github-dispatch"),
                                          "token_file": .string("deploy")])
        let id = try #require(added.json["id"]?.stringValue)
        try FileManager.default.removeItem(atPath: file)
        #expect(try server.call("POST", "/v1/webhooks/\(id)/test").status == 202)
        let deadline = Date().addingTimeInterval(10)
        var delivery: JSONValue?
        while Date() < deadline {
            delivery = try server.call("GET", "/v1/webhooks/\(id)/deliveries").json["deliveries"]?.arrayValue?.first
            if delivery?["status"]?.stringValue == "dead" { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // Retried on the schedule (three attempts with two retries), never sent without its token.
        #expect(delivery?["status"]?.stringValue == "dead")
        #expect(delivery?["attempts"]?.intValue == 3)
        #expect(delivery?["last_error"]?.stringValue == "the token file 'deploy' in webhooks.token_directory cannot be read; gave up after 3 attempts")
        #expect(github.requests.isEmpty)
    }
}
