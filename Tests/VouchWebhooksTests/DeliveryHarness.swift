import Foundation
import VouchDomain
@testable import VouchStore
import VouchTestSupport
import VouchWebhooks

/// A store in its own temporary directory with one endpoint (and maybe others), one event in the outbox for each,
/// and a running `DeliveryWorker`.
final class DeliveryHarness {
    let directory: TemporaryDirectory
    let store: RelationalStore
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

    /// - Parameters:
    ///   - otherURLs: more endpoints, which get the same event.
    ///   - resolver: where the senders look host names up; one of its own by default.
    init(url: String, timeoutMilliseconds: Int, retryDelays: [Int] = [60], otherURLs: [String] = [], threadCount: Int = 1,
         allowPrivateNetworks: Bool = true, resolver: HostResolver = HostResolver()) throws {
        directory = try TemporaryDirectory("vouch-webhook-tests")
        store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        let now = Date()
        for (index, url) in ([url] + otherURLs).enumerated() {
            try DeliveryHarness.createEndpoint(index == 0 ? endpointID : "we_other\(index)", url: url, in: store, at: now)
        }
        _ = try store.enqueue([DeliveryHarness.event(eventID, at: now)], onlyTo: nil, by: "admin")
        let settings = DeliveryWorker.Settings(schedule: DeliverySchedule(retryDelays: retryDelays, jitterFraction: 0),
                                               timeoutMilliseconds: timeoutMilliseconds, allowPrivateNetworks: allowPrivateNetworks,
                                               threadCount: threadCount, maxIdleMilliseconds: 50, leaseMilliseconds: 30_000)
        worker = DeliveryWorker(store: store, settings: settings, resolver: resolver, onError: { _, _ in })
        worker.start()
    }

    private static func createEndpoint(_ id: String, url: String, in store: RelationalStore, at time: Date) throws {
        try store.createEndpoint(WebhookEndpoint(id: id, url: url, events: [], required: true, secret: WebhookSigner.makeSecret(),
                                                 createdBy: "test", createdAt: time, updatedAt: time), by: "admin")
    }

    private static func event(_ id: String, at time: Date) -> WebhookEvent {
        let body = Array(#"{"type":"fix.created","timestamp":"2026-11-02T10:00:00Z","data":{"fix":"tv-channel-selector-labels"}}"#.utf8)
        return WebhookEvent(id: id, type: .fixCreated, fixKey: nil, revision: nil, body: body, createdAt: time)
    }

    /// Adds an endpoint, puts an event in the outbox for it alone and wakes the worker, as a route would.
    func addEndpoint(_ id: String, url: String, withEvent eventID: String) throws {
        let now = Date()
        try DeliveryHarness.createEndpoint(id, url: url, in: store, at: now)
        _ = try store.enqueue([DeliveryHarness.event(eventID, at: now)], onlyTo: id, by: "admin")
        worker.wake()
    }

    deinit {
        worker.stop()
    }

    var delivery: WebhookDelivery? { deliveries().first }

    /// The deliveries of an event, the harness's own by default.
    func deliveries(ofEvent eventID: String? = nil) -> [WebhookDelivery] {
        (try? store.deliveries(ofEvent: eventID ?? self.eventID)) ?? []
    }

    /// Waits until the delivery has `count` recorded attempts; returns it.
    func waitForAttempts(_ count: Int, seconds: Double = 5) -> WebhookDelivery? {
        waitForDeliveries(seconds: seconds) { $0.allSatisfy { $0.attempts >= count } }.first
    }

    /// Waits until the event's deliveries satisfy `done` (`seconds` at most); returns them as they are then.
    func waitForDeliveries(ofEvent eventID: String? = nil, seconds: Double = 5, until done: ([WebhookDelivery]) -> Bool) -> [WebhookDelivery] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let current = deliveries(ofEvent: eventID)
            if !current.isEmpty, done(current) { return current }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return deliveries(ofEvent: eventID)
    }

    func attempts() throws -> [Attempt] {
        try store.database.read { connection in
            try connection.query("SELECT number, status_code, error, duration_ms FROM webhook_attempts ORDER BY number").map {
                Attempt(number: $0.int(0), statusCode: $0.optionalInt(1), error: $0.optionalString(2), durationMilliseconds: $0.int(3))
            }
        }
    }
}
