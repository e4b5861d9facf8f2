import Foundation
import VouchDomain
@testable import VouchStore
import VouchWebhooks

/// A store in its own temporary directory with one endpoint, one event in the outbox, and a running `DeliveryWorker`.
final class DeliveryHarness {
    let directory: String
    let store: SQLiteStore
    let worker: DeliveryWorker
    let endpointID = "we_faulty"
    let eventID = "msg_fault0001"

    /// One row of `webhook_attempts`.
    struct Attempt {
        var number: Int
        var statusCode: Int?
        var error: String?
        var durationMilliseconds: Int
    }

    init(url: String, timeoutMilliseconds: Int, retryDelays: [Int] = [60]) throws {
        directory = NSTemporaryDirectory() + "vouch-webhook-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory + "/vouch.sqlite3")
        let now = Date()
        try store.createEndpoint(WebhookEndpoint(id: endpointID, url: url, events: [], required: true, secret: WebhookSigner.makeSecret(),
                                                 createdBy: "test", createdAt: now, updatedAt: now))
        let body = Array(#"{"type":"fix.created","timestamp":"2026-11-02T10:00:00Z","data":{"fix":"tv-channel-selector-labels"}}"#.utf8)
        _ = try store.enqueue([WebhookEvent(id: eventID, type: .fixCreated, fixKey: nil, revision: nil, body: body, createdAt: now)], onlyTo: nil)
        let settings = DeliveryWorker.Settings(schedule: DeliverySchedule(retryDelays: retryDelays, jitterFraction: 0),
                                               timeoutMilliseconds: timeoutMilliseconds, allowPrivateNetworks: true, threadCount: 1,
                                               maxIdleMilliseconds: 50)
        worker = DeliveryWorker(store: store, settings: settings, onError: { _, _ in })
        worker.start()
    }

    deinit {
        worker.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var delivery: WebhookDelivery? { (try? store.deliveries(ofEvent: eventID))?.first }

    /// Waits until the delivery has `count` recorded attempts; returns it.
    func waitForAttempts(_ count: Int, seconds: Double = 5) -> WebhookDelivery? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let delivery, delivery.attempts >= count { return delivery }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return delivery
    }

    func attempts() throws -> [Attempt] {
        try store.database.read { connection in
            try connection.query("SELECT number, status_code, error, duration_ms FROM webhook_attempts ORDER BY number").map {
                Attempt(number: $0.int(0), statusCode: $0.optionalInt(1), error: $0.optionalString(2), durationMilliseconds: $0.int(3))
            }
        }
    }
}
