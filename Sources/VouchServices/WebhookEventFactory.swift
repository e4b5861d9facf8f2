import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchJSON

/// Builds webhook event bodies: fix, revision, state and evidence counts; never a tester's name, contact or
/// assistive-technology profile.
enum WebhookEventFactory {
    /// Evidence counts for payloads.
    struct Evidence: Sendable {
        var testersPassed: Int
        var technologiesCovered: [String]
        var blocking: Int

        init(latest: [Feedback]) {
            let passed = latest.filter { $0.verdict == .passed }
            testersPassed = passed.count
            technologiesCovered = Array(Set(passed.map { "\($0.platform.rawValue):\($0.assistiveTech.rawValue)" })).sorted()
            blocking = latest.filter(\.isBlocking).count
        }

        var jsonValue: JSONValue {
            .object(["testers_passed": .int(testersPassed), "technologies_covered": .strings(technologiesCovered), "blocking": .int(blocking)])
        }
    }

    static func makeID() -> String { "msg_" + SecureRandom.alphanumeric(count: 24) }

    static func make(_ type: WebhookEventType, fix: Fix, evidence: Evidence?, extra: JSONObject = [:], id: String = makeID(), at time: Date) -> WebhookEvent {
        var data: JSONObject = ["fix": .string(fix.key.rawValue), "revision": .int(fix.revision), "state": .string(fix.state.rawValue)]
        if let evidence { data["evidence"] = evidence.jsonValue }
        for member in extra.members { data[member.key] = member.value }
        let body: JSONValue = .object(["type": .string(type.rawValue), "timestamp": .string(Timestamp.string(time)), "data": .object(data)])
        return WebhookEvent(id: id, type: type, fixKey: fix.key.rawValue, revision: fix.revision, body: JSONWriter.bytes(body), createdAt: time)
    }
}
