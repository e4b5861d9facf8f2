import Foundation
import Testing
@testable import VouchWebhooks

struct WebhookSignerTests {
    struct Vector: Decodable {
        var secret: String
        var webhook_id: String
        var webhook_timestamp: Int
        var body: String
        var webhook_signature: String
    }

    struct Vectors: Decodable {
        var vectors: [Vector]
    }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("standard-webhooks-vectors.json")
        return (try? JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url)).vectors) ?? []
    }()

    @Test func vectorsAreLoaded() {
        #expect(!Self.vectors.isEmpty)
    }

    @Test(arguments: vectors.indices) func signsLikeTheSpecification(index: Int) {
        let vector = Self.vectors[index]
        let signature = WebhookSigner.signature(secret: vector.secret, id: vector.webhook_id, timestamp: vector.webhook_timestamp, body: Array(vector.body.utf8))
        #expect(signature == vector.webhook_signature)
    }

    @Test func anyChangeChangesTheSignature() {
        let vector = Self.vectors[0]
        let original = WebhookSigner.signature(secret: vector.secret, id: vector.webhook_id, timestamp: vector.webhook_timestamp, body: Array(vector.body.utf8))
        #expect(WebhookSigner.signature(secret: vector.secret, id: vector.webhook_id, timestamp: vector.webhook_timestamp + 1, body: Array(vector.body.utf8)) != original)
        #expect(WebhookSigner.signature(secret: vector.secret, id: "msg_other", timestamp: vector.webhook_timestamp, body: Array(vector.body.utf8)) != original)
        #expect(WebhookSigner.signature(secret: vector.secret, id: vector.webhook_id, timestamp: vector.webhook_timestamp, body: Array((vector.body + " ").utf8)) != original)
    }

    @Test func newSecretsAreWhsecWith32RandomBytes() {
        let secret = WebhookSigner.makeSecret()
        #expect(secret.hasPrefix("whsec_"))
        #expect(WebhookSigner.key(of: secret)?.count == 32)
        #expect(WebhookSigner.makeSecret() != secret)
        #expect(WebhookSigner.key(of: "not-a-secret") == nil)
    }
}
