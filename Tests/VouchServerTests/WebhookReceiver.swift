import Foundation
import Synchronization
import VouchHTTP
import VouchWebhooks

/// A webhook receiver on port 0 that answers from a script and keeps every request it got.
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        var id: String
        var timestamp: String
        var signature: String
        var body: [UInt8]
        var receivedAt: Date

        var type: String? { (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["type"] as? String }
    }

    /// What to answer: a status, optional headers, and an optional delay before answering.
    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)] = []
        var delaySeconds: Double = 0
    }

    private let server: HTTPServer
    let port: UInt16
    /// The loopback address listened on: 127.0.0.1 or ::1.
    let host: String
    private let received = ReceivedLog()

    /// - Parameter script: the answer for the n-th request (0-based).
    init(host: String = "127.0.0.1", script: @escaping @Sendable (Int) -> Answer = { _ in Answer(status: 200) }) throws {
        let received = self.received
        self.host = host
        server = HTTPServer(configuration: .init(host: host, port: 0, threadCount: 2,
                                                 collectedHeaders: ["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"])) { request in
            let index = received.list.withLock { list -> Int in
                list.append(Received(id: request.header("webhook-id") ?? "", timestamp: request.header("webhook-timestamp") ?? "",
                                     signature: request.header("webhook-signature") ?? "", body: request.body, receivedAt: Date()))
                return list.count - 1
            }
            let answer = script(index)
            if answer.delaySeconds > 0 { Thread.sleep(forTimeInterval: answer.delaySeconds) }
            return HTTPResponse(status: answer.status, headers: answer.headers)
        }
        port = try server.start()
    }

    deinit {
        server.stop()
    }

    var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/hooks/vouch" }

    var requests: [Received] { received.list.withLock { $0 } }

    /// Waits until `count` requests arrived or the deadline passes.
    /// Every request so far, once one of type `type` came (or `seconds` passed): a release's own webhook is sent
    /// after the state changed, so seeing the state is not seeing its delivery.
    func wait(forType type: String, seconds: Double = 10) -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let current = requests
            if current.contains(where: { $0.type == type }) { return current }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return requests
    }

    func wait(for count: Int, seconds: Double = 10) -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let current = requests
            if current.count >= count { return current }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return requests
    }

    /// Whether a request carries a valid Standard Webhooks signature for `secret`.
    static func verify(_ request: Received, secret: String) -> Bool {
        guard let timestamp = Int(request.timestamp) else { return false }
        return WebhookSigner.signature(secret: secret, id: request.id, timestamp: timestamp, body: request.body) == request.signature
    }
}

/// The requests a receiver got, shared with its handler threads.
final class ReceivedLog: Sendable {
    let list = Mutex<[WebhookReceiver.Received]>([])
}
