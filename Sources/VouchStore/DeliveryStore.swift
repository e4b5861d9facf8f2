import Foundation
import VouchDomain

/// The webhook outbox: deliveries queued in the transaction that caused them, claimed, attempted and retried.
public protocol DeliveryStore: Sendable {
    /// Puts events in the outbox outside any fix change (a test event).
    func enqueue(_ events: [WebhookEvent], onlyTo endpointID: String?, by requester: Requester) throws -> [String]
    /// Claims pending deliveries due at `now`, oldest first, excluding ids already being sent: each is leased to
    /// `owner` until `leaseUntil`, and no other process sharing the database claims it before then.
    func claimDeliveries(at now: Date, by owner: String, leaseUntil: Date, excluding: Set<String>, limit: Int) throws -> [DeliveryJob]
    /// When the next pending delivery is due, if any.
    func nextDeliveryDue() throws -> Date?
    /// Records one attempt and its decision in one transaction, and ends the delivery's lease; throws `LeaseLost`
    /// when the attempt's process no longer holds it.
    func recordAttempt(_ attempt: DeliveryAttempt) throws -> WebhookDelivery
    func deliveries(endpoint: String?, status: WebhookDelivery.Status?, after id: String?, limit: Int) throws -> [WebhookDelivery]
    func deliveries(ofEvent eventID: String) throws -> [WebhookDelivery]
    /// Puts a dead delivery back in the queue with a fresh set of attempts.
    func redeliver(_ id: String, by principal: Requester, at time: Date) throws -> WebhookDelivery
}
