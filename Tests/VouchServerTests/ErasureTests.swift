import Foundation
import Testing
import VouchJSON
@testable import VouchServer
import VouchServices
import VouchTestSupport

/// Withdrawal erases a tester's personal data from the database file itself, not just from answers.
@Suite(.serialized) struct ErasureTests {
    func fileBytes(_ server: InProcessServer) throws -> Data {
        var bytes = Data()
        for suffix in ["", "-wal"] {
            let path = server.directory + "/vouch.sqlite3" + suffix
            if FileManager.default.fileExists(atPath: path) { bytes.append(try Data(contentsOf: URL(fileURLWithPath: path))) }
        }
        return bytes
    }

    func contains(_ bytes: Data, _ text: String) -> Bool { bytes.range(of: Data(text.utf8)) != nil }

    @Test(arguments: [false, true]) func withdrawalLeavesNoPersonalDataInTheFile(purge: Bool) throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let body = #"{"name":"Zelda Quintessa-Marlowe","contact":"zelda.q.marlowe@example.org","assistive_tech":["switch_control:ios:17.9.4"],"targeting_keys":["acct-zq-7781"],"consent":"2026-11"}"#
        let id = try #require(try server.call("POST", "/v1/testers", json: body).json["id"]?.stringValue)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        let feedback = FeedbackRoutesTests.passing(id, comment: "Quintessa says the switch scanning skips the logos")
        #expect(try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: feedback).status == 201)
        let before = try fileBytes(server)
        #expect(contains(before, "Zelda Quintessa-Marlowe"), "the check must be able to find the name before erasure")
        let answer = try server.call("POST", "/v1/testers/\(id)/withdraw", json: #"{"purge_feedback":\#(purge)}"#)
        #expect(answer.status == 200)
        let after = try fileBytes(server)
        for secret in ["Zelda Quintessa-Marlowe", "zelda.q.marlowe@example.org", "17.9.4", "acct-zq-7781", "Quintessa says"] {
            #expect(!contains(after, secret), "'\(secret)' is still in the database file after withdrawal")
        }
        let records = try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback").json["feedback"]?.arrayValue ?? []
        if purge {
            #expect(records.isEmpty)
        } else {
            #expect(records.count == 1)
            #expect(records.first?["tester"]?.stringValue == "withdrawn")
            #expect(records.first?["comment"] == .null)
            #expect(records.first?["verdict"]?.stringValue == "passed")
        }
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "acct-zq-7781").json["value"] == .bool(false))
    }

    /// Every field the tester or her tokens can fill holds a distinctive value; after withdrawal none of them is in any
    /// API answer, the audit log, the logs, the webhook payloads or the database files, and her key is targeted nowhere.
    @Test func withdrawalLeavesNothingThatLeadsBackToTheTester() throws {
        let logs = LogCapture()
        let receiver = try WebhookReceiver()
        let server = try InProcessServer(logger: Logger(level: .debug, sink: { logs.append($0) }))
        let key = "tv-channel-selector-labels"
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(key)/start")
        #expect(try server.call("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)"}"#).status == 201)
        let planted = [
            "name": "Ysolde Brackenridge-Okafor", "contact": "ysolde.bo@example.org", "at": "17.9.431", "key": "acct-yb-90817",
            "os": "iOS 18.6.2 beta 7 YB", "device": "iPhone 15 Pro (Ysolde's)", "build": "5.4.1 (YB-private-8812)", "atVersion": "18.6.2-ybq",
            "heard": "Kanal eins, Taste, ausgewählt YBQ", "comment": "Ysolde's own words QXZ", "token": "Ysolde phone token YBT",
        ]
        let tester = #"{"name":"\#(planted["name"]!)","contact":"\#(planted["contact"]!)","assistive_tech":["voiceover:ios:\#(planted["at"]!)"],"targeting_keys":["\#(planted["key"]!)"],"consent":"2026-11"}"#
        let id = try #require(try server.call("POST", "/v1/testers", json: tester).json["id"]?.stringValue)
        try server.call("POST", "/v1/fixes/\(key)/enrollments", json: #"{"testers":["\#(id)"]}"#)
        // A maintainer also added her key as a direct target, for a second fix too.
        try server.call("POST", "/v1/fixes", json: #"{"key":"epg-focus","title":"T","ui_area":"Programme guide","platforms":["ios"]}"#)
        try server.call("POST", "/v1/fixes/epg-focus/start")
        #expect(try server.call("POST", "/v1/fixes/epg-focus/targets", json: #"{"add":["\#(planted["key"]!)","qa-device"]}"#).status == 200)
        let token = try #require(try server.call("POST", "/v1/tokens", json: #"{"name":"\#(planted["token"]!)","role":"tester","tester":"\#(id)"}"#).json["token"]?.stringValue)
        let feedback = #"""
            {"verdict":"passed","task_outcome":"completed_with_workaround","severity":"minor","platform":"ios","os_version":"\#(planted["os"]!)",
             "device":"\#(planted["device"]!)","app_build":"\#(planted["build"]!)","assistive_tech":"voiceover","at_version":"\#(planted["atVersion"]!)",
             "heard":"\#(planted["heard"]!)","comment":"\#(planted["comment"]!)"}
            """#
        #expect(try server.call("POST", "/v1/fixes/\(key)/feedback", token: token, json: feedback, headers: [("Idempotency-Key", "yb-once")]).status == 201)
        #expect(try server.call("POST", "/v1/fixes/\(key)/feedback", json: FeedbackRoutesTests.passing(id)).status == 201)
        #expect(receiver.wait(for: 4).count >= 4)
        #expect(try server.evaluate("epg-focus", targetingKey: planted["key"]!).json["value"] == .bool(true))

        let answer = try server.call("POST", "/v1/testers/\(id)/withdraw", json: #"{"purge_feedback":false}"#)
        #expect(answer.status == 200)

        let paths = ["/v1/fixes/\(key)/feedback", "/v1/fixes/\(key)/feedback/summary", "/v1/fixes/\(key)/status", "/v1/fixes/\(key)/approvals",
                     "/v1/audit", "/v1/audit?fix=\(key)", "/v1/audit?fix=epg-focus", "/v1/fixes/epg-focus/targets", "/v1/fixes/\(key)/targets",
                     "/v1/tokens", "/v1/testers", "/v1/testers/\(id)", "/v1/testers/\(id)/export", "/v1/fixes", "/v1/fixes/\(key)/enrollments",
                     "/v1/deliveries", "/metrics"]
        var places: [(String, String)] = try paths.map { ($0, try server.call("GET", $0).text) }
        places.append(("logs", logs.text))
        places.append(("webhook payloads", receiver.requests.map { String(decoding: $0.body, as: UTF8.self) }.joined(separator: "\n")))
        let file = try fileBytes(server)
        for (field, value) in planted {
            for (place, text) in places {
                #expect(!text.contains(value), "the tester's \(field) '\(value)' is still in \(place)")
            }
            #expect(!contains(file, value), "the tester's \(field) '\(value)' is still in the database file")
        }
        // Her pseudonym no longer pairs with anything she did: not in the audit log, the feedback or any webhook.
        for place in ["/v1/audit", "/v1/audit?fix=\(key)", "/v1/fixes/\(key)/feedback", "/v1/fixes/\(key)/feedback/summary", "/v1/tokens"] {
            #expect(!(try server.call("GET", place).text.contains(id)), "the pseudonym \(id) is still in \(place)")
        }
        #expect(!places.last!.1.contains(id), "webhook payloads carried the pseudonym")
        // Her key is targeted nowhere; the QA device stays.
        #expect(try server.evaluate("epg-focus", targetingKey: planted["key"]!).json["value"] == .bool(false))
        #expect(try server.call("GET", "/v1/fixes/epg-focus/targets").json["targets"] == .strings(["qa-device"]))
        // The verdicts stay, unlinked, with what they need to explain a past decision.
        let kept = try server.call("GET", "/v1/fixes/\(key)/feedback").json["feedback"]?.arrayValue ?? []
        #expect(kept.count == 2)
        for record in kept {
            #expect(record["tester"]?.stringValue == "withdrawn" && record["recorded_by"]?.stringValue == "withdrawn")
            #expect(record["verdict"]?.stringValue == "passed" && record["assistive_tech"]?.stringValue == "voiceover")
            #expect(record["device"] == .null && record["at_version"] == .null && record["heard"] == .null && record["comment"] == .null)
        }
    }
}

/// Collects log lines from the daemon's threads.
final class LogCapture: @unchecked Sendable {
    // Guarded by `lock`.
    private var lines: [String] = []
    private let lock = NSLock()

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}
