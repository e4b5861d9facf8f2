import Foundation
import Testing
import VouchJSON
import VouchTestSupport
import VouchWebhooks

/// Webhook URLs through the API: refused forms are a 422 on `url` saying what is allowed, on POST and on PATCH,
/// whatever `webhooks.allow_private_networks` says; IPv6 receivers get their deliveries.
@Suite(.serialized) struct WebhookURLRoutesTests {
    /// The forms an adversarial review found accepted, with a word of the message that says what is allowed. Their hosts
    /// resolve without a network, so only the form can be what is refused.
    static let refusedForms: [(url: String, says: String)] = [
        ("http://127.0.0.1:0/hook", "port from 1 to 65535"), ("http://localhost:99999/hook", "port from 1 to 65535"),
        ("http://[::1]:0/hook", "port from 1 to 65535"), ("http://[127.0.0.1]/", "IPv6 address"), ("http://[1.1.1.1]:8080/", "IPv6 address"),
        ("http://localhost/hook\r\nX-Injected: 1", "carriage return or line feed"), ("http://local\nhost/hook", "carriage return or line feed"),
        ("http://localhost%0d%0aX-Injected:1/", "letters, digits"), ("http://localhost%0a/", "letters, digits"),
        ("http://2130706433/", "four decimal numbers"), ("http://[fe80::1%25lo]/", "IPv6 address"),
    ]

    @Test(arguments: refusedForms)
    func aRefusedFormIsA422OnURLAtRegistrationAndOnPatch(url: String, says: String) throws {
        // Private networks allowed: the form alone is refused.
        let server = try InProcessServer()
        let created = try server.call("POST", "/v1/webhooks", json: JSONWriter.string(.object(["url": .string(url)])))
        #expect(created.status == 422, "\(url.debugDescription) answered \(created.status)")
        #expect(created.errorFields == ["url"])
        let message = created.json["errors"]?.arrayValue?.first?["message"]?.stringValue ?? ""
        #expect(message.contains(says), "\(url.debugDescription): \(message)")
        let existing = try server.call("POST", "/v1/webhooks", json: #"{"url":"http://127.0.0.1:9/hook"}"#)
        let id = try #require(existing.json["id"]?.stringValue)
        let moved = try server.call("PATCH", "/v1/webhooks/\(id)", json: JSONWriter.string(.object(["url": .string(url)])))
        #expect(moved.status == 422, "PATCH to \(url.debugDescription) answered \(moved.status)")
        #expect(moved.errorFields == ["url"])
        #expect(try server.call("GET", "/v1/webhooks/\(id)").json["url"]?.stringValue == "http://127.0.0.1:9/hook")
    }

    @Test func aReceiverOnIPv6LoopbackGetsSignedDeliveries() throws {
        let receiver = try WebhookReceiver(on: .ipv6)
        let server = try InProcessServer()
        let created = try server.call("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","events":["fix.created"]}"#)
        #expect(created.status == 201, "\(created.text)")
        let secret = try #require(created.json["secret"]?.stringValue)
        try server.createChannelSelectorFix()
        let received = try #require(receiver.wait(for: 1).first)
        #expect(received.type == "fix.created")
        #expect(WebhookReceiver.verify(received, secret: secret))
    }

    /// A name that does not exist, and one whose DNS server never answers (a stand-in lookup that hangs until the end
    /// of the test): both a 422 on `url` that says which; a resolver too busy to look is a 503 that says to retry.
    @Test func aHostThatDoesNotResolveOrNotInTimeIsRefusedOnURL() throws {
        let silence = DispatchSemaphore(value: 0)
        defer { silence.signal() }
        let resolver = HostResolver(threadCount: 1, maxThreads: 1, queueLimit: 1) { name in
            switch name {
            case "nxdomain.test": return .notFound
            case "never-answers.test":
                silence.wait()
                silence.signal()
                return .notFound
            default: return .addresses(["93.184.215.14"])
            }
        }
        var settings = InProcessServer.testSettings()
        settings.dnsTimeoutMilliseconds = 300
        let server = try InProcessServer(settings: settings, hostResolver: resolver)
        func message(_ answer: InProcessServer.Answer) -> String { answer.json["errors"]?.arrayValue?.first?["message"]?.stringValue ?? "" }

        let missing = try server.call("POST", "/v1/webhooks", json: #"{"url":"https://nxdomain.test/hook"}"#)
        #expect(missing.status == 422 && missing.errorFields == ["url"], "\(missing.text)")
        #expect(message(missing).hasPrefix("the host name 'nxdomain.test' does not resolve"), "\(missing.text)")

        let silent = try server.call("POST", "/v1/webhooks", json: #"{"url":"https://never-answers.test/hook"}"#)
        #expect(silent.status == 422 && silent.errorFields == ["url"], "\(silent.text)")
        #expect(message(silent).hasPrefix("the host name 'never-answers.test' did not resolve within 0.3s"), "\(silent.text)")
        #expect(message(silent).contains("try again"))

        // The one resolver thread is still stuck on that name; one name waiting fills the queue, so the next is refused.
        resolver.resolve("queued.test", timeout: .seconds(30)) { _ in }
        let busy = try server.call("POST", "/v1/webhooks", json: #"{"url":"https://public.test/hook"}"#)
        #expect(busy.status == 503 && busy.headers["retry-after"] == "1", "\(busy.text)")
        #expect(busy.json["detail"]?.stringValue?.contains("try again in a moment") == true, "\(busy.text)")
        let metrics = try server.call("GET", "/metrics", token: .some(nil)).text
        for line in ["vouch_webhook_dns_timeouts_total 1", "vouch_webhook_dns_refused_total 1", "vouch_webhook_dns_running 1"] {
            #expect(metrics.contains(line + "\n"), "no '\(line)' in /metrics")
        }

        silence.signal()
        // The resolver thread leaves the stuck name a moment after the signal; until then the queue is still full.
        let freed = Date().addingTimeInterval(5)
        while try server.call("GET", "/metrics", token: .some(nil)).text.contains("vouch_webhook_dns_running 1\n"), Date() < freed {
            usleep(10_000)
        }
        let created = try server.call("POST", "/v1/webhooks", json: #"{"url":"https://public.test/hook"}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json["id"]?.stringValue)
        let moved = try server.call("PATCH", "/v1/webhooks/\(id)", json: #"{"url":"https://nxdomain.test/other"}"#)
        #expect(moved.status == 422 && moved.errorFields == ["url"], "\(moved.text)")
        #expect(try server.call("GET", "/v1/webhooks").json["webhooks"]?.arrayValue?.count == 1)
    }
}
