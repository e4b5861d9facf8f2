import Foundation
import VouchCodec
import VouchDomain
import VouchJSON
import VouchStore
import VouchWebhooks

/// Webhook delivery throughput: puts `events` events for one endpoint into the durable outbox of a stopped vouchd
/// (through `RelationalStore.createEndpoint` and `enqueue`, the same calls the API makes), so that when vouchd starts,
/// its delivery worker finds them all due at once; `delivery-status` then counts the outcome in the file.
enum OutboxFiller {
    static func fill(stateDirectory: String, url: String, events count: Int) throws {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = try RelationalStore(path: StorePopulator.databasePath(stateDirectory))
        let now = Date()
        let endpoint = WebhookEndpoint(id: "we_" + randomAlphanumeric(count: 16), url: url, events: [], required: false,
                                       secret: WebhookSigner.makeSecret(), createdBy: "bench", createdAt: now, updatedAt: now)
        try store.createEndpoint(endpoint, by: "bench")
        // A feedback.received event as vouchd writes it (same fields and size), one fix per 100 events.
        let events = (0..<count).map { number -> WebhookEvent in
            // All in the past, one millisecond apart: every delivery is due when vouchd starts.
            let time = now.addingTimeInterval(-Double(count - number) / 1_000)
            let fix = "ios.player-controls.fix-\(number / 100)"
            let data: JSONObject = [
                "fix": .string(fix), "revision": .int(1), "state": .string("testing"),
                "evidence": .object(["testers_passed": .int(number % 7), "technologies_covered": .strings(["ios:voiceover"]), "blocking": .int(0)]),
                "feedback": .string("fb_" + randomAlphanumeric(count: 16)),
                "verdict": .string("passed"), "severity": .string("none"), "regression": .bool(false),
            ]
            let body: JSONValue = .object(["type": .string(WebhookEventType.feedbackReceived.rawValue), "timestamp": .string(Timestamp.string(time)), "data": .object(data)])
            return WebhookEvent(id: "msg_" + randomAlphanumeric(count: 24), type: .feedbackReceived, fixKey: fix, revision: 1,
                                body: JSONWriter.bytes(body), createdAt: time)
        }
        let deliveries = try store.enqueue(events, onlyTo: endpoint.id, by: "bench")
        guard deliveries.count == count else { throw BenchError("\(deliveries.count) deliveries were enqueued, not \(count)") }
        Report.line("Webhook outbox endpoint", "\(endpoint.id) \(url)")
        Report.line("Webhook outbox pending deliveries", String(deliveries.count))
        Report.line("Webhook outbox event body bytes", String(events.first?.body.count ?? 0))
    }

    /// Deliveries by status, and attempts, as stored.
    static func status(stateDirectory: String) throws {
        let database = try SQLiteDatabase(path: StorePopulator.databasePath(stateDirectory))
        let (byStatus, attempts) = try database.read { connection in
            (try connection.query("SELECT status, COUNT(*) FROM webhook_deliveries GROUP BY status ORDER BY status").map { "\($0.string(0))=\($0.int(1))" },
             try connection.scalar("SELECT COUNT(*) FROM webhook_attempts") ?? -1)
        }
        Report.line("Webhook deliveries by status", byStatus.joined(separator: " "))
        Report.line("Webhook attempts recorded", String(attempts))
    }
}

/// Random ids of the same shape as vouchd's (lowercase letters and digits); not secrets, so the system generator will do.
func randomAlphanumeric(count: Int) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    return String(decoding: (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }, as: UTF8.self)
}
