import Foundation
import Testing
import VouchCrypto
import VouchDomain
import VouchJSON
@testable import VouchServer
import VouchStore
import VouchTestSupport
import VouchWebhooks

/// A security review as tests: each one tries to break a rule (tester scope, four eyes, SSRF, secrets) and fails if it can.
@Suite(.serialized) struct SecurityReviewTests {
    static let fixA = "tv-channel-selector-labels"
    static let fixB = "settings-screen-contrast"

    static func fixBody(_ key: String) -> String { #"{"key":"\#(key)","title":"T","ui_area":"Settings screen","platforms":["ios"]}"# }

    func createTester(_ server: InProcessServer, _ name: String, key: String) throws -> String {
        let body = #"{"name":"\#(name)","contact":"\#(name.lowercased())@example.org","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["\#(key)"],"consent":"2026-11"}"#
        return try #require(try server.call("POST", "/v1/testers", json: body).json["id"]?.stringValue)
    }

    // MARK: - Tester token scope

    /// Tester T1 (enrolled in A) holds a tester token; T2 is enrolled in A and B and has feedback on A.
    @Test func aTesterTokenReachesOnlyItsOwnTesterAndFixes() throws {
        let server = try InProcessServer()
        for key in [Self.fixA, Self.fixB] {
            #expect(try server.call("POST", "/v1/fixes", json: Self.fixBody(key)).status == 201)
            try server.call("POST", "/v1/fixes/\(key)/start")
        }
        let t1 = try createTester(server, "Aiko", key: "user-1")
        let t2 = try createTester(server, "Bertil", key: "user-2")
        try server.call("POST", "/v1/fixes/\(Self.fixA)/enrollments", json: #"{"testers":["\#(t1)","\#(t2)"]}"#)
        try server.call("POST", "/v1/fixes/\(Self.fixB)/enrollments", json: #"{"testers":["\#(t2)"]}"#)
        #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/feedback", json: FeedbackRoutesTests.passing(t2, comment: "Bertil's private remark")).status == 201)
        let created = try server.call("POST", "/v1/tokens", json: #"{"name":"aiko-phone","role":"tester","tester":"\#(t1)"}"#)
        let token = try #require(created.json["token"]?.stringValue)
        let own = try server.call("POST", "/v1/fixes/\(Self.fixA)/feedback", token: token, json: FeedbackRoutesTests.passing(t1))
        #expect(own.status == 201)

        let a = Self.fixA, b = Self.fixB
        let refused: [(String, String, String?)] = [
            ("GET", "/v1/testers", nil), ("GET", "/v1/testers/\(t2)", nil), ("PATCH", "/v1/testers/\(t2)", #"{"contact":"x@example.org"}"#),
            ("PATCH", "/v1/testers/\(t1)", #"{"contact":"x@example.org"}"#), ("GET", "/v1/testers/\(t2)/export", nil),
            ("POST", "/v1/testers/\(t2)/withdraw", "{}"), ("POST", "/v1/testers", #"{"name":"X","assistive_tech":["voiceover:ios"],"consent":"v1"}"#),
            ("GET", "/v1/fixes/\(a)/feedback?tester=\(t2)", nil), ("GET", "/v1/fixes/\(a)/feedback/summary", nil),
            ("GET", "/v1/fixes/\(b)", nil), ("GET", "/v1/fixes/\(b)/feedback", nil), ("GET", "/v1/fixes/\(a)/status", nil),
            ("GET", "/v1/fixes/\(a)/enrollments", nil), ("POST", "/v1/fixes/\(a)/enrollments", #"{"testers":["\#(t1)"]}"#),
            ("DELETE", "/v1/fixes/\(a)/enrollments/\(t2)", nil), ("GET", "/v1/fixes/\(a)/targets", nil),
            ("POST", "/v1/fixes/\(a)/targets", #"{"add":["attacker-device"]}"#), ("PATCH", "/v1/fixes/\(a)", #"{"title":"Owned"}"#),
            ("POST", "/v1/fixes", Self.fixBody("tester-made")), ("PUT", "/v1/fixes/\(a)/criteria", #"{"min_testers_passed":0}"#),
            ("PUT", "/v1/fixes/\(a)/rollout", #"{"phased":true,"steps":[100],"interval":"1s"}"#),
            ("GET", "/v1/fixes/\(a)/approvals", nil), ("POST", "/v1/fixes/\(a)/approvals", #"{"decision":"approve"}"#),
            ("GET", "/v1/webhooks", nil), ("POST", "/v1/webhooks", #"{"url":"https://example.org/hook"}"#), ("GET", "/v1/deliveries", nil),
            ("GET", "/v1/tokens", nil), ("POST", "/v1/tokens", #"{"name":"escalate","role":"admin"}"#),
            ("GET", "/v1/audit", nil), ("GET", "/v1/audit?fix=\(a)", nil),
            ("POST", "/v1/fixes/\(a)/feedback", FeedbackRoutesTests.passing(t2)),
            ("POST", "/v1/fixes/\(a)/feedback", "[\(FeedbackRoutesTests.passing(t1)),\(FeedbackRoutesTests.passing(t2))]"),
        ] + ["start", "revise", "pause", "resume", "abandon", "rollback", "promote", "retry-promotion"].map { ("POST", "/v1/fixes/\(a)/\($0)", "{}") }
        for (method, path, body) in refused {
            let answer = try server.call(method, path, token: token, json: body)
            #expect(answer.status == 403, "tester token: \(method) \(path) answered \(answer.status) \(answer.text.prefix(160))")
        }
        // Feedback for a fix the tester is not enrolled in is refused and nothing is stored.
        let elsewhere = try server.call("POST", "/v1/fixes/\(b)/feedback", token: token, json: FeedbackRoutesTests.passing(t1))
        #expect([403, 409].contains(elsewhere.status), "feedback on an unenrolled fix answered \(elsewhere.status)")
        #expect(try server.call("GET", "/v1/fixes/\(b)/feedback").json["feedback"]?.arrayValue?.isEmpty == true)

        // What it may reach shows only its own tester.
        #expect(try server.call("GET", "/v1/testers/\(t1)", token: token).status == 200)
        let fixes = try server.call("GET", "/v1/fixes", token: token).json["fixes"]?.arrayValue?.compactMap { $0["key"]?.stringValue }
        #expect(fixes == [a])
        let feedback = try server.call("GET", "/v1/fixes/\(a)/feedback", token: token)
        #expect(feedback.status == 200)
        #expect(feedback.json["feedback"]?.arrayValue?.compactMap { $0["tester"]?.stringValue } == [t1])
        #expect(!feedback.text.contains("Bertil"))
        let export = try server.call("GET", "/v1/testers/\(t1)/export", token: token)
        #expect(export.status == 200)
        #expect(!export.text.contains(t2) && !export.text.contains("Bertil"))
        // Nothing the refused calls tried was done.
        #expect(try server.call("GET", "/v1/fixes/\(a)").json["title"]?.stringValue == "T")
        #expect(try server.call("GET", "/v1/fixes/\(a)/targets").text.contains("attacker-device") == false)
        #expect(try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue?.count == 2)
        #expect(try server.call("GET", "/v1/fixes/\(a)/feedback?tester=\(t2)").json["feedback"]?.arrayValue?.count == 1)
    }

    /// A tester token must not learn which fixes exist: a fix it is not enrolled in and a fix that does not exist answer alike.
    @Test func aTesterTokenCannotProbeWhichFixesExist() throws {
        let server = try InProcessServer()
        #expect(try server.call("POST", "/v1/fixes", json: Self.fixBody(Self.fixB)).status == 201)
        try server.call("POST", "/v1/fixes/\(Self.fixB)/start")
        let t1 = try createTester(server, "Aiko", key: "user-1")
        let token = try #require(try server.call("POST", "/v1/tokens", json: #"{"name":"aiko","role":"tester","tester":"\#(t1)"}"#).json["token"]?.stringValue)
        for (method, suffix, body) in [("GET", "", nil), ("GET", "/feedback", nil), ("POST", "/feedback", FeedbackRoutesTests.passing(t1))] {
            let existing = try server.call(method, "/v1/fixes/\(Self.fixB)\(suffix)", token: token, json: body)
            let missing = try server.call(method, "/v1/fixes/unreleased-secret-project\(suffix)", token: token, json: body)
            #expect(existing.status == missing.status, "\(method) …\(suffix): an unenrolled fix answers \(existing.status), a missing one \(missing.status)")
            #expect(!existing.text.contains(Self.fixB), "\(method) …\(suffix) names the fix: \(existing.text)")
        }
    }

    // MARK: - Four eyes

    static let quickCriteria = InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 1, requiredAssistiveTech: [], minSoakSeconds: 0))

    /// A fix by the maintainer `author`, started, with one passing tester; criteria met but for the approval.
    func fixReadyForApproval(_ server: InProcessServer, author: String, testers: Int = 1) throws {
        let maintainer = try server.token(role: "maintainer", name: author)
        #expect(try server.call("POST", "/v1/fixes", token: maintainer, json: Self.fixBody(Self.fixA)).status == 201)
        #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/start", token: maintainer).status == 200)
        for index in 0..<testers {
            let tester = try createTester(server, "Tester\(index)", key: "user-\(index)")
            try server.call("POST", "/v1/fixes/\(Self.fixA)/enrollments", token: maintainer, json: #"{"testers":["\#(tester)"]}"#)
            #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/feedback", token: maintainer, json: FeedbackRoutesTests.passing(tester)).status == 201)
        }
    }

    func state(_ server: InProcessServer) throws -> String { try server.call("GET", "/v1/fixes/\(Self.fixA)").json["state"]?.stringValue ?? "" }

    /// The author approving under another token of the same name, or the same name in other letters, is still the author.
    @Test(arguments: ["Alice", "alice", "ALICE", " Alice "]) func theAuthorCannotApproveUnderAnotherToken(name: String) throws {
        let server = try InProcessServer(settings: Self.quickCriteria)
        try fixReadyForApproval(server, author: "Alice")
        let releaseManager = try server.token(role: "release_manager", name: name)
        let answer = try server.call("POST", "/v1/fixes/\(Self.fixA)/approvals", token: releaseManager, json: #"{"decision":"approve"}"#)
        #expect(answer.status == 403, "release manager '\(name)' approving Alice's fix answered \(answer.status)")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try state(server) == "testing", "the author's own approval promoted the fix")
        // Another person may.
        if answer.status == 403 {
            let rita = try server.token(role: "release_manager", name: "Rita")
            #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/approvals", token: rita, json: #"{"decision":"approve"}"#).status == 201)
        }
    }

    /// Two approvals are required; a second token of the same principal, however spelled, must not be the second vote.
    @Test(arguments: [("rita", "rita"), ("rita", "Rita"), ("rita", "RITA"), ("Zo\u{00EB}", "Zoe\u{0308}")])
    func onePrincipalHasOneVote(first: String, second: String) throws {
        var settings = Self.quickCriteria
        settings.criteria.approvalsRequired = 2
        let server = try InProcessServer(settings: settings)
        try fixReadyForApproval(server, author: "Alice")
        let one = try server.token(role: "release_manager", name: first)
        let other = try server.token(role: "release_manager", name: second)
        #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/approvals", token: one, json: #"{"decision":"approve"}"#).status == 201)
        let again = try server.call("POST", "/v1/fixes/\(Self.fixA)/approvals", token: one, json: #"{"decision":"approve"}"#)
        #expect(again.status == 409)
        let twin = try server.call("POST", "/v1/fixes/\(Self.fixA)/approvals", token: other, json: #"{"decision":"approve"}"#)
        #expect(twin.status == 409, "a second vote by '\(second)' after '\(first)' answered \(twin.status)")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try state(server) == "testing", "one principal's two votes promoted the fix")
    }

    @Test func anApprovalForAnOldRevisionDoesNotCount() throws {
        let server = try InProcessServer(settings: InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 2, requiredAssistiveTech: [], minSoakSeconds: 0)))
        try fixReadyForApproval(server, author: "Alice", testers: 1)
        let rita = try server.token(role: "release_manager", name: "Rita")
        #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/approvals", token: rita, json: #"{"decision":"approve"}"#).status == 201)
        #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/revise", json: #"{"note":"build 413"}"#).json["revision"]?.intValue == 2)
        // Every other criterion is met on revision 2.
        let testers = try server.call("GET", "/v1/fixes/\(Self.fixA)/enrollments").json["enrollments"]?.arrayValue?.compactMap { $0["tester"]?.stringValue } ?? []
        var ids = testers
        ids.append(try createTester(server, "Tester9", key: "user-9"))
        try server.call("POST", "/v1/fixes/\(Self.fixA)/enrollments", json: #"{"testers":["\#(ids.last!)"]}"#)
        for id in ids { #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/feedback", json: FeedbackRoutesTests.passing(id)).status == 201) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try state(server) == "testing", "an approval of revision 1 promoted revision 2")
        let status = try server.call("GET", "/v1/fixes/\(Self.fixA)/status").json
        let unmet = status["criteria"]?.arrayValue?.filter { $0["met"] == .bool(false) }.compactMap { $0["name"]?.stringValue }
        #expect(unmet == ["approvals_required"])
        let approval = try server.call("GET", "/v1/fixes/\(Self.fixA)/approvals").json["approvals"]?.arrayValue?.first
        #expect(approval?["valid"] == .bool(false))
        #expect(approval?["standing"]?.stringValue?.contains("revision 1") == true)
        #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/promote", token: rita).status == 409)
        // A fresh approval of revision 2 counts.
        #expect(try server.call("POST", "/v1/fixes/\(Self.fixA)/approvals", token: rita, json: #"{"decision":"approve"}"#).status == 201)
    }

    // MARK: - SSRF

    static var privateTargets: [String] {
        var urls = [
            "http://127.0.0.1/hook", "http://127.0.0.1:8750/v1/tokens", "http://127.8.9.10/", "http://[::1]/hook", "http://[::1]:8750/",
            "http://10.0.0.1/", "http://10.255.255.254:8080/", "http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.1.1/",
            "http://100.64.0.1/", "http://169.254.169.254/latest/meta-data/", "https://169.254.169.254/", "http://0.0.0.0/", "http://0/",
            "http://localhost/", "http://LOCALHOST:8750/", "http://localhost./", "http://2130706433/", "http://0x7f000001/", "http://0x7f.0.0.1/",
            "http://0177.0.0.1/", "http://017700000001/", "http://127.1/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
            "http://[::ffff:169.254.169.254]/", "http://[::ffff:10.0.0.1]/", "http://[::]/", "http://[fd00::1]/", "http://[fe80::1]/",
            "http://2852039166/",
            // IPv4-translated (RFC 2765), local-use NAT64 (RFC 8215), and IPv6 ranges that are not global.
            "http://[::ffff:0:127.0.0.1]/", "http://[::ffff:0:7f00:1]:8750/", "http://[::ffff:0:a9fe:a9fe]/", "http://[64:ff9b:1::7f00:1]/",
            "http://[fec0::1]/", "http://[ff02::1]/", "http://[2001:db8::1]/", "http://[100::1]/", "http://192.0.2.1/", "http://203.0.113.9/",
        ]
        // A DNS name that resolves to loopback through the resolver (Debian maps the host's own name to 127.0.1.1).
        let host = ProcessInfo.processInfo.hostName
        if !host.isEmpty, host != "localhost", Self.resolvesToLoopback(host) { urls.append("http://\(host)/hook") }
        return urls
    }

    static func resolvesToLoopback(_ name: String) -> Bool {
        guard case .addresses(let addresses) = HostResolver().resolve(name, timeout: .seconds(10)) else { return false }
        return addresses.first.map { $0.hasPrefix("127.") || $0 == "::1" } ?? false
    }

    @Test func webhookURLsIntoLoopbackOrPrivateNetworksAreRefused() throws {
        var settings = InProcessServer.testSettings()
        settings.delivery.allowPrivateNetworks = false
        let server = try InProcessServer(settings: settings)
        for url in Self.privateTargets {
            let answer = try server.call("POST", "/v1/webhooks", json: JSONWriter.string(.object(["url": .string(url)])))
            #expect(answer.status == 422, "\(url) was accepted (\(answer.status))")
            #expect(answer.errorFields == ["url"], "\(url): \(answer.text)")
        }
        #expect(try server.call("GET", "/v1/webhooks").json["webhooks"]?.arrayValue?.isEmpty == true)
    }

    /// IPv6 forms that carry an IPv4 address: NAT64 (RFC 6052), 6to4 (RFC 3056) and the deprecated IPv4-compatible form.
    @Test(arguments: ["http://[64:ff9b::7f00:1]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[64:ff9b::a00:1]/",
                      "http://[2002:7f00:1::1]/", "http://[2002:a9fe:a9fe::1]/", "http://[::127.0.0.1]/", "http://[::7f00:1]/"])
    func ipv6FormsThatEmbedAPrivateIPv4AddressAreRefused(url: String) throws {
        #expect(throws: AddressPolicy.Refusal.self, "\(url) is allowed") {
            try AddressPolicy(allowPrivateNetworks: false, resolver: HostResolver(), timeout: .seconds(10)).resolve(url)
        }
    }

    @Test func aWebhookCannotBeMovedToAPrivateAddressAndPrivateAddressesNeedTheSwitch() throws {
        var settings = InProcessServer.testSettings()
        settings.delivery.allowPrivateNetworks = false
        let server = try InProcessServer(settings: settings)
        // A public address literal: resolving it needs no network.
        let created = try server.call("POST", "/v1/webhooks", json: #"{"url":"https://93.184.215.14/hooks/vouch"}"#)
        #expect(created.status == 201)
        let id = try #require(created.json["id"]?.stringValue)
        for url in ["http://127.0.0.1/", "http://169.254.169.254/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:0:127.0.0.1]/"] {
            let moved = try server.call("PATCH", "/v1/webhooks/\(id)", json: #"{"url":"\#(url)"}"#)
            #expect(moved.status == 422, "PATCH to \(url) answered \(moved.status)")
        }
        #expect(try server.call("GET", "/v1/webhooks/\(id)").json["url"]?.stringValue == "https://93.184.215.14/hooks/vouch")
        // With webhooks.allow_private_networks the same addresses are accepted.
        let allowing = try InProcessServer()
        #expect(try allowing.call("POST", "/v1/webhooks", json: #"{"url":"http://127.0.0.1:9/hook"}"#).status == 201)
    }

    /// A receiver that redirects to another address (here loopback) is not followed: the target never hears of it.
    @Test func aRedirectingReceiverIsNotFollowed() throws {
        let target = try WebhookReceiver()
        let redirecting = try WebhookReceiver { _ in .init(status: 307, headers: [(name: "Location", value: target.url)]) }
        let server = try InProcessServer(settings: InProcessServer.testSettings(retryDelays: [30]))
        let created = try server.call("POST", "/v1/webhooks", json: #"{"url":"\#(redirecting.url)","events":["fix.created"]}"#)
        let id = try #require(created.json["id"]?.stringValue)
        try server.createChannelSelectorFix()
        #expect(redirecting.wait(for: 1).count == 1)
        var delivery: JSONValue = .null
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            delivery = try server.call("GET", "/v1/webhooks/\(id)/deliveries").json["deliveries"]?.arrayValue?.first ?? .null
            if delivery["attempts"]?.intValue == 1 { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(delivery["last_status_code"]?.intValue == 307)
        #expect(delivery["status"]?.stringValue == "pending")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(target.requests.isEmpty)
    }

    // MARK: - Secrets

    @Test func secretsNeverAppearInAnswersAuditExportOrLogs() throws {
        let temporary = try TemporaryDirectory("vouch-security-tests")
        let directory = temporary.path
        let receiver = try WebhookReceiver()
        let server = try FaultServer(directory: directory, logLevel: .debug)
        defer { server.stop() }
        /// As the admin unless another token, or none (`.some(nil)`), is given.
        @discardableResult
        func call(_ method: String, _ path: String, token: String?? = .none, json: String? = nil, headers: [(String, String)] = []) throws -> InProcessServer.Answer {
            var address = server.address
            if let token { address.token = token }
            return try address.call(method, path, json: json, headers: headers, using: server.client)
        }
        var secrets = [server.adminToken]
        var answers: [String] = []
        #expect(try call("POST", "/v1/fixes", json: Self.fixBody(Self.fixA)).status == 201)
        try call("POST", "/v1/fixes/\(Self.fixA)/start")
        let tester = try #require(try call("POST", "/v1/testers", json: #"{"name":"Aiko","assistive_tech":["voiceover:ios"],"targeting_keys":["user-1"],"consent":"v1"}"#).json["id"]?.stringValue)
        try call("POST", "/v1/fixes/\(Self.fixA)/enrollments", json: #"{"testers":["\#(tester)"]}"#)
        var tokenIDs: [String] = []
        for body in [#"{"name":"ios-app","role":"sdk"}"#, #"{"name":"mia","role":"maintainer"}"#, #"{"name":"aiko","role":"tester","tester":"\#(tester)"}"#] {
            let created = try call("POST", "/v1/tokens", json: body)
            secrets.append(try #require(created.json["token"]?.stringValue))
            tokenIDs.append(try #require(created.json["id"]?.stringValue))
        }
        let webhook = try call("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","events":["fix.created","feedback.received"]}"#)
        let webhookSecret = try #require(webhook.json["secret"]?.stringValue)
        let webhookID = try #require(webhook.json["id"]?.stringValue)
        secrets += [webhookSecret, String(webhookSecret.dropFirst("whsec_".count))]
        let tokenHashes = secrets.prefix(4).map { Digest.sha256($0).map { String(format: "%02x", $0) }.joined() }

        // Use every secret the way clients do, including wrong ones, then read everything back.
        answers.append(try call("POST", "/v1/fixes/\(Self.fixA)/feedback", token: secrets[3], json: FeedbackRoutesTests.passing(tester)).text)
        answers.append(try call("POST", "/ofrep/v1/evaluate/flags/\(Self.fixA)", token: secrets[1], json: #"{"context":{"targetingKey":"user-1"}}"#).text)
        answers.append(try call("GET", "/v1/fixes", token: .some(nil), headers: [("X-API-Key", secrets[2])]).text)
        answers.append(try call("GET", "/v1/fixes", token: secrets[1] + "x").text)
        answers.append(try call("POST", "/v1/webhooks/\(webhookID)/test").text)
        #expect(receiver.wait(for: 2).count >= 2)
        for path in ["/v1/webhooks", "/v1/webhooks/\(webhookID)", "/v1/webhooks/\(webhookID)/deliveries", "/v1/deliveries", "/v1/tokens",
                     "/v1/audit?limit=500", "/v1/testers/\(tester)", "/v1/testers/\(tester)/export", "/v1/fixes/\(Self.fixA)/feedback",
                     "/metrics", "/v1/fixes/\(Self.fixA)/status"] {
            let answer = try call("GET", path)
            #expect(answer.status == 200, "\(path)")
            answers.append(answer.text)
        }
        answers.append(try call("PATCH", "/v1/webhooks/\(webhookID)", json: #"{"required":true}"#).text)
        answers.append(try call("GET", "/v1/testers/\(tester)/export", token: secrets[3]).text)
        answers.append(try call("DELETE", "/v1/tokens/\(tokenIDs[0])").text)
        answers.append(try call("GET", "/v1/audit?limit=500").text)
        let logs = server.logLines.text.withLock { $0 }
        #expect(logs.contains("msg=request"), "the debug log must have been captured for this check to mean anything")
        for (index, secret) in (secrets + tokenHashes).enumerated() {
            for (number, answer) in answers.enumerated() {
                #expect(!answer.contains(secret), "secret \(index) is in answer \(number)")
            }
            #expect(!logs.contains(secret), "secret \(index) is in the log")
        }
        // Token secrets are stored only as their SHA-256; the file holds no secret.
        let rows = try #require(server.store).database.read { try $0.query("SELECT secret_sha256 FROM tokens").map { $0.blob(0) } }
        #expect(Set(rows) == Set(secrets.prefix(4).map { Digest.sha256($0) }))
        var file = Data()
        for suffix in ["", "-wal"] { file.append((try? Data(contentsOf: URL(fileURLWithPath: server.databasePath + suffix))) ?? Data()) }
        #expect(file.count > 0)
        for (index, secret) in secrets.prefix(4).enumerated() {
            #expect(file.range(of: Data(secret.utf8)) == nil, "token secret \(index) is in the database file")
        }
    }
}
