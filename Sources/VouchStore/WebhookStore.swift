import Foundation
import VouchDomain

/// Webhook endpoints: where events are delivered.
public protocol WebhookStore: Sendable {
    func createEndpoint(_ endpoint: WebhookEndpoint, by requester: Requester) throws
    func endpoints(after id: String?, limit: Int) throws -> [WebhookEndpoint]
    func endpoint(_ id: String) throws -> WebhookEndpoint?
    func updateEndpoint(_ id: String, by principal: Requester, _ change: (WebhookEndpoint) throws -> WebhookEndpoint) throws -> WebhookEndpoint
    func deleteEndpoint(_ id: String, by principal: Requester, at time: Date) throws
}
