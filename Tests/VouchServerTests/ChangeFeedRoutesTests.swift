import Foundation
import Synchronization
import Testing
import VouchDomain
@testable import VouchServer
import VouchStore
import VouchTestSupport

/// Every kind of write route reaches the evaluation snapshot, the token directory and the delivery worker through
/// the store's change feed alone: the controllers hold none of them any more, so what these see came from the feed.
struct ChangeFeedRoutesTests {
    /// Everything the application's feed published, in the order it arrived.
    final class Publications: Sendable {
        private let list = Mutex<[CommittedChanges]>([])

        init(_ feed: ChangeFeed) {
            feed.subscribe { [self] committed in list.withLock { $0.append(committed) } }
        }

        var all: [CommittedChanges] { list.withLock { $0 } }
    }

    /// One write's answer and what it published.
    struct Write {
        var answer: InProcessServer.Answer
        var published: [CommittedChanges]
        var changes: [StoreChange] { published.flatMap(\.changes) }
        var configuration: ConfigurationChange? { published.compactMap(\.configuration).last }
    }

    let key = "tv-channel-selector-labels"

    @Test func everyWriteRouteReachesTheSubscribersThroughTheFeed() throws {
        let receiver = try WebhookReceiver { _ in .init(status: 500) }
        // Two passing testers are needed and only one ever reports, so nothing is promoted behind the test's back;
        // failed deliveries wait 30 s before their retry, so they stay pending.
        let server = try InProcessServer(settings: InProcessServer.testSettings(
            criteria: CriteriaSettings(minTestersPassed: 2, requiredAssistiveTech: [], minSoakSeconds: 0), retryDelays: [30, 30]))
        let application = server.application
        let log = Publications(application.changes)
        var rule: FlagRule? { application.snapshots.snapshot.rules[key] }

        func write(_ method: String, _ path: String, json: String? = nil, token: String? = nil, status: Int = 200) throws -> Write {
            let (published, wakes) = (log.all.count, application.deliveries.wakesByCommits)
            let answer = try server.call(method, path, token: token.map { .some($0) } ?? .none, json: json)
            #expect(answer.status == status, "\(method) \(path) answered \(answer.status): \(answer.text)")
            let write = Write(answer: answer, published: Array(log.all.dropFirst(published)))
            // The worker was woken once for each commit that put deliveries in the outbox or requeued one, and only then.
            let due = write.published.filter { $0.changes.contains { change in
                switch change {
                case .outboxRowsAdded, .deliveryRequeued: true
                default: false
                }
            } }
            #expect(application.deliveries.wakesByCommits - wakes == due.count, "\(method) \(path)")
            return write
        }
        func expectRuleCommitted(by write: Write, _ comment: Comment) {
            #expect(write.configuration?.flagRuleFixKeys == [key], comment)
            #expect(rule?.version == write.configuration?.revision, comment)
        }

        let webhook = try write("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","required":false}"#, status: 201)
        let webhookID = try #require(webhook.answer.json["id"]?.stringValue)
        #expect(webhook.published.isEmpty)

        let created = try write("POST", "/v1/fixes", json: InProcessServer.channelSelectorFix, status: 201)
        expectRuleCommitted(by: created, "create")
        #expect(rule?.state == .draft)
        #expect(created.published.count == 1)

        let patched = try write("PATCH", "/v1/fixes/\(key)", json: #"{"title":"Label every channel logo"}"#)
        #expect(patched.published.count == 1 && patched.configuration == nil)
        #expect(patched.published.first?.revision == created.configuration?.revision)

        let started = try write("POST", "/v1/fixes/\(key)/start")
        expectRuleCommitted(by: started, "start")
        #expect(rule?.state == .testing)

        let targeted = try write("POST", "/v1/fixes/\(key)/targets", json: #"{"add":["qa-device"]}"#)
        expectRuleCommitted(by: targeted, "targets")
        #expect(rule?.targetedKeys == ["qa-device"])

        let tester = try write("POST", "/v1/testers", json: #"""
            {"name":"Aiko","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["user-1"],"consent":"2026-11"}
            """#, status: 201)
        let testerID = try #require(tester.answer.json["id"]?.stringValue)
        #expect(tester.configuration == nil)
        #expect(tester.changes.contains { if case .testerChanged(let id) = $0 { id == testerID } else { false } })
        let enrolled = try write("POST", "/v1/fixes/\(key)/enrollments", json: #"{"testers":["\#(testerID)"]}"#)
        expectRuleCommitted(by: enrolled, "enroll")
        #expect(rule?.targetedKeys == ["qa-device", "user-1"])

        let rekeyed = try write("PATCH", "/v1/testers/\(testerID)", json: #"{"targeting_keys":["user-2"]}"#)
        expectRuleCommitted(by: rekeyed, "tester keys")
        #expect(rule?.targetedKeys == ["qa-device", "user-2"])
        #expect(try server.evaluate(key, targetingKey: "user-2").json["value"] == .bool(true))

        let sdk = try write("POST", "/v1/tokens", json: #"{"name":"ios-app","role":"sdk"}"#, status: 201)
        let sdkSecret = try #require(sdk.answer.json["token"]?.stringValue)
        let sdkID = try #require(sdk.answer.json["id"]?.stringValue)
        #expect(sdk.configuration?.addedTokenIDs == [sdkID])
        #expect(application.tokens.principal(forSecret: sdkSecret)?.role == .sdk)
        #expect(try server.evaluate(key, targetingKey: "user-2", token: sdkSecret).status == 200)
        let phone = try write("POST", "/v1/tokens", json: #"{"name":"phone","role":"tester","tester":"\#(testerID)"}"#, status: 201)
        let phoneSecret = try #require(phone.answer.json["token"]?.stringValue)
        #expect(application.tokens.principal(forSecret: phoneSecret)?.testerID == testerID)

        let feedback = try write("POST", "/v1/fixes/\(key)/feedback", json: FeedbackRoutesTests.passing(testerID), token: phoneSecret, status: 201)
        #expect(feedback.configuration == nil)
        #expect(feedback.changes.contains { if case .feedbackRecorded(let recorded) = $0 { recorded.records.count == 1 } else { false } })
        #expect(feedback.changes.contains { if case .outboxRowsAdded(1) = $0 { true } else { false } })

        let criteria = try write("PUT", "/v1/fixes/\(key)/criteria", json: #"{"min_testers_passed":3}"#)
        #expect(criteria.configuration?.criteriaFixKeys == [key])
        #expect(criteria.configuration?.flagRuleFixKeys == [])

        let manager = try server.token(role: "release_manager", name: "rita")
        let approval = try write("POST", "/v1/fixes/\(key)/approvals", json: #"{"decision":"approve"}"#, token: manager, status: 201)
        #expect(approval.changes.contains { if case .approvalRecorded(let fix) = $0 { fix == key } else { false } })

        let ping = try write("POST", "/v1/webhooks/\(webhookID)/test", status: 202)
        #expect(ping.changes.contains { if case .outboxRowsAdded(1) = $0 { true } else { false } })

        // Disabling the endpoint cancels what was waiting for it; a cancelled delivery can be sent again.
        let disabled = try write("PATCH", "/v1/webhooks/\(webhookID)", json: #"{"enabled":false}"#)
        #expect(disabled.changes.contains { if case .deliveriesCancelled(let endpoint) = $0 { endpoint == webhookID } else { false } })
        _ = try write("PATCH", "/v1/webhooks/\(webhookID)", json: #"{"enabled":true}"#)
        let cancelled = try #require(try server.call("GET", "/v1/deliveries?status=cancelled").json["deliveries"]?.arrayValue?.first?["id"]?.stringValue)
        let redelivered = try write("POST", "/v1/deliveries/\(cancelled)/redeliver")
        #expect(redelivered.changes.contains { if case .deliveryRequeued(let id) = $0 { id == cancelled } else { false } })

        let revoked = try write("DELETE", "/v1/tokens/\(sdkID)")
        #expect(revoked.configuration?.revokedTokenIDs == [sdkID])
        #expect(application.tokens.principal(forSecret: sdkSecret) == nil)
        #expect(application.tokens.isRevoked(secret: sdkSecret))
        #expect(try server.evaluate(key, targetingKey: "user-2", token: sdkSecret).status == 401)

        let unenrolled = try write("DELETE", "/v1/fixes/\(key)/enrollments/\(testerID)")
        expectRuleCommitted(by: unenrolled, "unenroll")
        #expect(rule?.targetedKeys == ["qa-device"])
        _ = try write("POST", "/v1/fixes/\(key)/enrollments", json: #"{"testers":["\#(testerID)"]}"#)
        #expect(rule?.targetedKeys == ["qa-device", "user-2"])

        let withdrawn = try write("POST", "/v1/testers/\(testerID)/withdraw")
        expectRuleCommitted(by: withdrawn, "withdraw")
        #expect(rule?.targetedKeys == ["qa-device"])
        #expect(withdrawn.configuration?.revokedTokenIDs.count == 1)
        #expect(application.tokens.principal(forSecret: phoneSecret) == nil)

        let paused = try write("POST", "/v1/fixes/\(key)/pause")
        expectRuleCommitted(by: paused, "pause")
        #expect(rule?.state == .paused)
        #expect(try server.evaluate(key, targetingKey: "qa-device").json["reason"]?.stringValue == "DISABLED")

        // Every revision was published once, in increasing order, and another process reads the same list back.
        let configurations = log.all.compactMap(\.configuration)
        #expect(zip(configurations, configurations.dropFirst()).allSatisfy { $1.revision == $0.revision + 1 })
        let since = try #require(configurations.first?.revision) - 1
        #expect(try application.store.configurationChanges(since: since) == configurations)
    }
}
