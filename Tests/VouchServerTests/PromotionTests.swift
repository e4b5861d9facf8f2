import Foundation
import Testing
import VouchDomain
import VouchJSON
@testable import VouchServer
import VouchTestSupport

/// Criteria, approvals, signed webhooks, release and rollback, against receivers on loopback.
@Suite(.serialized) struct PromotionTests {
    static let storySettings = InProcessServer.testSettings(criteria: CriteriaSettings(
        minTestersPassed: 2, requiredAssistiveTech: [.init(platform: .ios, technology: .voiceover)], minSoakSeconds: 0))

    /// Polls the fix until it reaches `state` or the deadline passes; returns the last state seen.
    @discardableResult
    func waitForState(_ server: InProcessServer, _ key: String, _ state: String, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try server.call("GET", "/v1/fixes/\(key)").json["state"]?.stringValue ?? ""
            if last == state { return last }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return last
    }

    func addWebhook(_ server: InProcessServer, _ receiver: WebhookReceiver, required: Bool = true, events: [String] = []) throws -> (id: String, secret: String) {
        let body = JSONWriter.string(.object(["url": .string(receiver.url), "required": .bool(required), "events": .strings(events)]))
        let answer = try server.call("POST", "/v1/webhooks", json: body)
        guard answer.status == 201, let id = answer.json["id"]?.stringValue, let secret = answer.json["secret"]?.stringValue else {
            throw DaemonProcess.DaemonStartFailure(log: answer.text)
        }
        return (id, secret)
    }

    /// A started fix with `testers` VoiceOver testers enrolled who all passed it; returns their ids.
    @discardableResult
    func fixWithPassingTesters(_ server: InProcessServer, testers: Int) throws -> [String] {
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        var ids: [String] = []
        for index in 0..<testers {
            let body = #"{"name":"Tester \#(index)","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["user-\#(index + 1)"],"consent":"2026-11"}"#
            ids.append(try server.call("POST", "/v1/testers", json: body).json["id"]?.stringValue ?? "")
        }
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: JSONWriter.string(.object(["testers": .strings(ids)])))
        for id in ids {
            let answer = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: FeedbackRoutesTests.passing(id))
            guard answer.status == 201 else { throw DaemonProcess.DaemonStartFailure(log: answer.text) }
        }
        return ids
    }

    /// A release manager (not the author, the admin) approves the fix's current revision.
    func approve(_ server: InProcessServer, key: String = "tv-channel-selector-labels") throws {
        let manager = try server.token(role: "release_manager", name: "rita")
        let answer = try server.call("POST", "/v1/fixes/\(key)/approvals", token: manager, json: #"{"decision":"approve"}"#)
        guard answer.status == 201 else { throw DaemonProcess.DaemonStartFailure(log: answer.text) }
    }

    @Test func theSeedsStoryFromFixToEveryoneAndBack() throws {
        let receiver = try WebhookReceiver()
        let server = try InProcessServer(settings: Self.storySettings)
        let webhook = try addWebhook(server, receiver)
        try fixWithPassingTesters(server, testers: 2)
        let key = "tv-channel-selector-labels"
        // Evidence is there, an approval is missing.
        let status = try server.call("GET", "/v1/fixes/\(key)/status").json
        #expect(status["criteria_met"] == .bool(false))
        let unmet = status["criteria"]?.arrayValue?.filter { $0["met"] == .bool(false) }.compactMap { $0["name"]?.stringValue }
        #expect(unmet == ["approvals_required"])
        #expect(status["criteria"]?.arrayValue?.first?["summary"]?.stringValue == "2 of 2 passing testers")
        // The author may not approve their own fix.
        let byAuthor = try server.call("POST", "/v1/fixes/\(key)/approvals", json: #"{"decision":"approve"}"#)
        #expect(byAuthor.status == 403)
        #expect(byAuthor.json["detail"]?.stringValue?.contains("having shaped it (created the fix)") == true)
        #expect(try server.call("POST", "/v1/fixes/\(key)/promote").status == 409)
        let releaseManager = try server.token(role: "release_manager", name: "rita")
        let approved = try server.call("POST", "/v1/fixes/\(key)/approvals", token: releaseManager, json: #"{"decision":"approve","comment":"VoiceOver users confirm it"}"#)
        #expect(approved.status == 201)
        #expect(approved.json["valid"] == .bool(true))
        // The daemon promotes on its own, the required receiver answers 2xx, the fix is released.
        #expect(try waitForState(server, key, "released") == "released")
        let requests = receiver.wait(forType: "fix.released")
        let types = requests.compactMap(\.type)
        #expect(types.contains("fix.promoted"))
        #expect(types.contains("fix.released"))
        #expect(requests.allSatisfy { WebhookReceiver.verify($0, secret: webhook.secret) }, "every delivery must carry a valid signature")
        let promoted = try #require(requests.first { $0.type == "fix.promoted" })
        let payload = try JSONParser.parse(promoted.body)
        #expect(payload["data"]?["fix"]?.stringValue == key)
        #expect(payload["data"]?["evidence"]?["testers_passed"]?.intValue == 2)
        #expect(!String(decoding: promoted.body, as: UTF8.self).contains("Tester 0"))
        for user in ["user-1", "someone-else"] {
            let answer = try server.evaluate(key, targetingKey: user).json
            #expect(answer["value"] == .bool(true))
            #expect(answer["reason"]?.stringValue == "STATIC")
        }
        // Rollback turns the flag off for everyone at once.
        let rolledBack = try server.call("POST", "/v1/fixes/\(key)/rollback", token: releaseManager, json: #"{"reason":"crash on tvOS"}"#)
        #expect(rolledBack.json["state"]?.stringValue == "rolled_back")
        let off = try server.evaluate(key, targetingKey: "user-1").json
        #expect(off["value"] == .bool(false))
        #expect(off["reason"]?.stringValue == "DISABLED")
        #expect(receiver.wait(for: types.count + 1).compactMap(\.type).contains("fix.rolled_back"))
        let audit = try server.call("GET", "/v1/audit?fix=\(key)").json["events"]?.arrayValue?.compactMap { $0["action"]?.stringValue } ?? []
        for action in ["approval.approve", "fix.promote", "fix.promotion-succeeded", "fix.rollback"] { #expect(audit.contains(action), "\(action) in \(audit)") }
    }

    /// The check after feedback evaluates the criteria only when an approval of the revision could let the evidence
    /// promote the fix: approved first, the fix waits, and the feedback that completes the evidence promotes it.
    @Test func feedbackThatCompletesTheEvidenceAfterAnApprovalPromotes() throws {
        let server = try InProcessServer(settings: Self.storySettings)
        let testers = try fixWithPassingTesters(server, testers: 1)
        let key = "tv-channel-selector-labels"
        let body = #"{"name":"Tester 1","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["user-2"],"consent":"2026-11"}"#
        let second = try #require(try server.call("POST", "/v1/testers", json: body).json["id"]?.stringValue)
        try server.call("POST", "/v1/fixes/\(key)/enrollments", json: JSONWriter.string(.object(["testers": .strings([second])])))
        try approve(server)
        // One passing tester of two: approved, still testing.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try server.call("GET", "/v1/fixes/\(key)").json["state"]?.stringValue == "testing")
        #expect(testers.count == 1)
        #expect(try server.call("POST", "/v1/fixes/\(key)/feedback", json: FeedbackRoutesTests.passing(second)).status == 201)
        #expect(try waitForState(server, key, "released") == "released")
    }

    @Test func manualPromoteListsWhatIsMissing() throws {
        let server = try InProcessServer(settings: Self.storySettings)
        try fixWithPassingTesters(server, testers: 1)
        let releaseManager = try server.token(role: "release_manager")
        let refused = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/promote", token: releaseManager)
        #expect(refused.status == 409)
        #expect(Set(refused.errorFields) == ["min_testers_passed", "approvals_required"])
        #expect(refused.json["detail"]?.stringValue?.contains("1 more passing tester") == true)
    }

    @Test func rejectionBlocksUntilANewRevisionAndFailingFeedbackVoidsApproval() throws {
        let server = try InProcessServer(settings: InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 2, requiredAssistiveTech: [], minSoakSeconds: 0)))
        let testers = try fixWithPassingTesters(server, testers: 1)
        let key = "tv-channel-selector-labels"
        let rita = try server.token(role: "release_manager", name: "rita")
        let sam = try server.token(role: "release_manager", name: "sam")
        #expect(try server.call("POST", "/v1/fixes/\(key)/approvals", token: rita, json: #"{"decision":"reject"}"#).errorFields == ["comment"])
        #expect(try server.call("POST", "/v1/fixes/\(key)/approvals", token: rita, json: #"{"decision":"reject","comment":"focus order still wrong"}"#).status == 201)
        #expect(try server.call("POST", "/v1/fixes/\(key)/approvals", token: rita, json: #"{"decision":"approve"}"#).status == 409)
        let approvals = try server.call("GET", "/v1/fixes/\(key)/status").json["criteria"]?.arrayValue?.last
        #expect(approvals?["met"] == .bool(false))
        #expect(approvals?["missing"]?.stringValue?.contains("new revision") == true)
        // A new revision clears the rejection; an approval is then voided by new failing feedback.
        try server.call("POST", "/v1/fixes/\(key)/revise", json: #"{"note":"build 413"}"#)
        #expect(try server.call("POST", "/v1/fixes/\(key)/approvals", token: sam, json: #"{"decision":"approve"}"#).status == 201)
        let failing = FeedbackRoutesTests.passing(testers[0]).replacingOccurrences(of: "\"passed\"", with: "\"failed\"")
            .replacingOccurrences(of: "\"minor\"", with: "\"moderate\"")
        #expect(try server.call("POST", "/v1/fixes/\(key)/feedback", json: failing).status == 201)
        let standing = try server.call("GET", "/v1/fixes/\(key)/approvals").json["approvals"]?.arrayValue?.last
        #expect(standing?["valid"] == .bool(false))
        #expect(standing?["standing"]?.stringValue?.contains("voided by failing feedback") == true)
        #expect(try server.call("GET", "/v1/fixes/\(key)").json["state"]?.stringValue == "testing")
    }

    @Test func retryAfter503KeepsTheSameWebhookID() throws {
        let receiver = try WebhookReceiver { index in
            index == 0 ? .init(status: 503, headers: [(name: "Retry-After", value: "1")]) : .init(status: 200)
        }
        let server = try InProcessServer()
        let webhook = try addWebhook(server, receiver, events: ["fix.created"])
        try server.createChannelSelectorFix()
        let requests = receiver.wait(for: 2)
        #expect(requests.count == 2)
        #expect(requests.map(\.id).allSatisfy { $0 == requests[0].id && $0.hasPrefix("msg_") })
        #expect(requests[0].body == requests[1].body)
        #expect(requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt) >= 0.9, "Retry-After: 1 must be honoured")
        #expect(requests.allSatisfy { WebhookReceiver.verify($0, secret: webhook.secret) })
        // The receiver has answered; the worker records the attempt a moment later.
        var deliveries: [JSONValue] = []
        let deadline = Date().addingTimeInterval(5)
        repeat {
            deliveries = try server.call("GET", "/v1/webhooks/\(webhook.id)/deliveries").json["deliveries"]?.arrayValue ?? []
            if deliveries.first?["status"]?.stringValue == "succeeded" { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        #expect(deliveries.first?["status"]?.stringValue == "succeeded")
        #expect(deliveries.first?["attempts"]?.intValue == 2)
    }

    @Test func goneDisablesTheEndpointAndFailsARequiredPromotion() throws {
        let receiver = try WebhookReceiver { _ in .init(status: 410) }
        let server = try InProcessServer(settings: InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 1, requiredAssistiveTech: [],
                                                                                                  minSoakSeconds: 0)))
        let webhook = try addWebhook(server, receiver, events: ["fix.promoted"])
        try fixWithPassingTesters(server, testers: 1)
        try approve(server)
        #expect(try waitForState(server, "tv-channel-selector-labels", "promotion_failed") == "promotion_failed")
        let endpoint = try server.call("GET", "/v1/webhooks/\(webhook.id)").json
        #expect(endpoint["enabled"] == .bool(false))
        #expect(endpoint["disabled_reason"]?.stringValue?.contains("410") == true)
        #expect(receiver.requests.count == 1)
        // Redelivering after the receiver is fixed and the endpoint enabled again.
        let dead = try server.call("GET", "/v1/deliveries?status=dead").json["deliveries"]?.arrayValue ?? []
        #expect(dead.count == 1)
    }

    @Test func deletingARequiredWebhookFailsThePromotionWaitingOnIt() throws {
        let receiver = try WebhookReceiver { _ in .init(status: 500) }
        let server = try InProcessServer(settings: InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 1, requiredAssistiveTech: [],
                                                                                                  minSoakSeconds: 0),
                                                                      retryDelays: [30, 30]))
        let webhook = try addWebhook(server, receiver, events: ["fix.promoted"])
        try fixWithPassingTesters(server, testers: 1)
        try approve(server)
        #expect(try waitForState(server, "tv-channel-selector-labels", "promoting") == "promoting")
        #expect(receiver.wait(for: 1).count == 1)
        #expect(try server.call("DELETE", "/v1/webhooks/\(webhook.id)").status == 204)
        #expect(try waitForState(server, "tv-channel-selector-labels", "promotion_failed") == "promotion_failed")
        let history = try server.call("GET", "/v1/deliveries?webhook=\(webhook.id)").json["deliveries"]?.arrayValue ?? []
        #expect(history.first?["status"]?.stringValue == "cancelled")
        #expect(try server.call("GET", "/v1/webhooks/\(webhook.id)").status == 404)
        let id = try #require(history.first?["id"]?.stringValue)
        #expect(try server.call("POST", "/v1/deliveries/\(id)/redeliver").status == 409)
    }

    @Test func aHangingReceiverTimesOutAndIsRetried() throws {
        let receiver = try WebhookReceiver { index in index == 0 ? .init(status: 200, delaySeconds: 2.5) : .init(status: 204) }
        let server = try InProcessServer(settings: InProcessServer.testSettings(retryDelays: [0, 0], timeoutMilliseconds: 500))
        let webhook = try addWebhook(server, receiver, events: ["fix.created"])
        try server.createChannelSelectorFix()
        let deadline = Date().addingTimeInterval(10)
        var delivery: JSONValue = .null
        while Date() < deadline {
            delivery = try server.call("GET", "/v1/webhooks/\(webhook.id)/deliveries").json["deliveries"]?.arrayValue?.first ?? .null
            if delivery["status"]?.stringValue == "succeeded" { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(delivery["status"]?.stringValue == "succeeded")
        #expect(delivery["attempts"]?.intValue == 2)
    }

    @Test func privateAddressesAreRefusedUnlessAllowed() throws {
        var settings = InProcessServer.testSettings()
        settings.delivery.allowPrivateNetworks = false
        let server = try InProcessServer(settings: settings)
        let refused = try server.call("POST", "/v1/webhooks", json: #"{"url":"http://127.0.0.1:9/hook"}"#)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["url"])
        #expect(refused.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("allow_private_networks") == true)
        #expect(try server.call("POST", "/v1/webhooks", json: #"{"url":"ftp://example.org/"}"#).status == 422)
    }

    @Test func phasedRolloutStepsAndPausesOnBlockingFeedback() throws {
        var settings = InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 1, requiredAssistiveTech: [], minSoakSeconds: 0))
        settings.maxTimerSleepMilliseconds = 100
        let server = try InProcessServer(settings: settings)
        try server.createChannelSelectorFix()
        let rollout = try server.call("PUT", "/v1/fixes/tv-channel-selector-labels/rollout", json: #"{"phased":true,"steps":[10,50,100],"interval":"1s"}"#)
        #expect(rollout.status == 200)
        #expect(rollout.json["rollout"]?["steps"] == .array([.int(10), .int(50), .int(100)]))
        let bad = try server.call("PUT", "/v1/fixes/tv-channel-selector-labels/rollout", json: #"{"phased":true,"steps":[50,10],"interval":"soon"}"#)
        #expect(Set(bad.errorFields) == ["steps", "interval"])
        let testers = try {
            try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
            let id = try server.call("POST", "/v1/testers", json: #"{"name":"T","assistive_tech":["voiceover:ios"],"targeting_keys":["user-1"],"consent":"v1"}"#).json["id"]?.stringValue ?? ""
            try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
            return [id]
        }()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: FeedbackRoutesTests.passing(testers[0]))
        try approve(server)
        #expect(try waitForState(server, "tv-channel-selector-labels", "releasing") == "releasing")
        let first = try server.call("GET", "/v1/fixes/tv-channel-selector-labels").json["rollout_percentage"]?.intValue
        #expect(first == 10)
        let outcome = try server.evaluate("tv-channel-selector-labels", targetingKey: "someone").json
        #expect(outcome["reason"]?.stringValue == "SPLIT")
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json["reason"]?.stringValue == "TARGETING_MATCH")
        let deadline = Date().addingTimeInterval(5)
        var percentage = first ?? 0
        while Date() < deadline && percentage < 50 {
            percentage = try server.call("GET", "/v1/fixes/tv-channel-selector-labels").json["rollout_percentage"]?.intValue ?? 100
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(percentage == 50)
        // A blocking report while releasing pauses the fix at once.
        let blocking = FeedbackRoutesTests.passing(testers[0]).replacingOccurrences(of: "\"passed\"", with: "\"failed\"")
            .replacingOccurrences(of: "\"minor\"", with: "\"critical\"")
        #expect(try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: blocking).status == 201)
        let paused = try server.call("GET", "/v1/fixes/tv-channel-selector-labels").json
        #expect(paused["state"]?.stringValue == "paused")
        #expect(paused["paused_from"]?.stringValue == "releasing")
        let status = try server.call("GET", "/v1/fixes/tv-channel-selector-labels/status").json
        #expect(status["promotion"] == .string("paused during its phased release: the flag is off for everyone until the fix is resumed"))
        #expect(status["ready_to_promote"] == .bool(false))
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json["reason"]?.stringValue == "DISABLED")
    }

    @Test func criteriaOverridesAreValidatedAndShownInStatus() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let bad = try server.call("PUT", "/v1/fixes/tv-channel-selector-labels/criteria", json: #"{"min_testers_passed":-1,"min_soak":"forever","required_assistive_tech":["ios:screen_reader"],"x":1}"#)
        #expect(Set(bad.errorFields) == ["min_testers_passed", "min_soak", "required_assistive_tech", "x"])
        let good = try server.call("PUT", "/v1/fixes/tv-channel-selector-labels/criteria", json: #"{"min_testers_passed":3,"min_soak":"2h","required_assistive_tech":["ios:switch_control"]}"#)
        #expect(good.status == 200)
        let summaries = good.json["criteria"]?.arrayValue?.compactMap { $0["summary"]?.stringValue } ?? []
        #expect(summaries.contains("0 of 3 passing testers"))
        #expect(summaries.contains("revision 1 has not entered testing yet; 2 hours needed"))
        // A draft is not promoted whatever its criteria say: the report says it must be started first.
        #expect(good.json["promotion"] == .string("not started: the fix is a draft and must be started before it can be promoted"))
        let details = good.json["criteria"]?.arrayValue?.first { $0["name"]?.stringValue == "required_assistive_tech" }?["details"]
        #expect(details == .strings(["Switch Control on iOS: no passing tester yet"]))
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels").json["criteria"]?["min_soak"]?.stringValue == "2h")
    }
}
