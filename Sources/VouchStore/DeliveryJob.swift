import Foundation
import VouchDomain

/// A delivery ready to send: where, what, with which secret, and in which format.
public struct DeliveryJob: Sendable {
    public var delivery: WebhookDelivery
    public var url: String
    public var secret: String
    /// The stored Standard Webhooks body; other formats are shaped from it at each attempt.
    public var body: [UInt8]
    public var format: WebhookFormat
    /// A `github-dispatch` endpoint's token file, by name in `webhooks.token_directory`.
    public var tokenFile: String?

    public init(delivery: WebhookDelivery, url: String, secret: String, body: [UInt8], format: WebhookFormat = .standard, tokenFile: String? = nil) {
        self.delivery = delivery
        self.url = url
        self.secret = secret
        self.body = body
        self.format = format
        self.tokenFile = tokenFile
    }
}
