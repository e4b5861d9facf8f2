import Foundation
import VouchDomain

/// A delivery ready to send: where, what, and with which secret.
public struct DeliveryJob: Sendable {
    public var delivery: WebhookDelivery
    public var url: String
    public var secret: String
    public var body: [UInt8]
}
