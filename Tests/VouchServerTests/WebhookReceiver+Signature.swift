import VouchTestSupport
import VouchWebhooks

extension WebhookReceiver {
    /// Whether a request carries a valid Standard Webhooks signature for `secret`.
    static func verify(_ request: Request, secret: String) -> Bool {
        guard let timestamp = Int(request.timestamp) else { return false }
        return WebhookSigner.signature(secret: secret, id: request.id, timestamp: timestamp, body: request.body) == request.signature
    }
}
