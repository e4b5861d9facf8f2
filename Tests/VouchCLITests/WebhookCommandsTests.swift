import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch webhook …` against a live vouchd that may call a receiver on loopback.
@Suite struct WebhookCommandsTests {
    @Test func addListShowUpdateTestAndDelete() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let server = try DaemonProcess(environment: DaemonProcess.promotionEnvironment)
        defer { server.stop() }

        // The secret is printed once, with what it is for.
        let added = try server.vouch("webhook", "add", receiver.url, "--events", "fix.promoted,fix.released", "--required")
        #expect(added.status == 0, "\(added)")
        let lines = added.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(added)")
        let id = String(lines[0].dropFirst("Webhook ".count).prefix { $0 != " " })
        #expect(id.hasPrefix("we_"))
        #expect(lines[0] == "Webhook \(id) is added: \(receiver.url); events: fix promoted, fix released; required for promotion: yes; enabled: yes.")
        #expect(lines[1].hasPrefix("Secret: whsec_"))
        #expect(lines[2] == "The secret will not be shown again; store it now. Receivers verify every delivery's webhook-signature header with it (Standard Webhooks).")
        let secret = String(lines[1].dropFirst("Secret: ".count))

        let listed = try server.vouch("webhook", "list")
        #expect(listed == VouchRun(status: 0, stdout: """
            \(id): \(receiver.url); events: fix promoted, fix released; required for promotion: yes; enabled: yes.
            1 webhook.

            """, stderr: ""))
        let json = try server.json("webhook", "show", id)
        #expect(try server.vouch("webhook", "show", id) == VouchRun(status: 0, stdout: """
            Id: \(id)
            URL: \(receiver.url)
            Format: Standard Webhooks, signed
            Events: fix promoted, fix released
            Required for promotion: yes
            Enabled: yes
            Created: \(ConsoleTime.say(json["created_at"]?.stringValue)) by admin
            Updated: \(ConsoleTime.say(json["updated_at"]?.stringValue))

            """, stderr: ""))
        for run in [listed, try server.vouch("webhook", "show", id), try server.vouch("webhook", "list", "--json")] {
            #expect(!run.stdout.contains(secret))
        }

        // A disabled webhook gets no test event; enabled again, it does.
        #expect(try server.vouch("webhook", "update", id, "--disable", "--required", "false", "--events", "") == VouchRun(status: 0, stdout: """
            Webhook \(ending(id)) is updated: \(receiver.url); events: all; required for promotion: no; enabled: no.

            """, stderr: ""))
        #expect(try server.vouch("webhook", "test", id) == VouchRun(status: 65, stdout: "", stderr: "Error: webhook \(id) is disabled (by hand); enable it first\n"))
        #expect(try server.vouch("webhook", "update", id, "--enable").stdout.hasSuffix("; enabled: yes.\n"))

        let tested = try server.vouch("webhook", "test", id)
        let queued = try #require(tested.stdout.split(separator: "\n").first.map(String.init), "\(tested)")
        #expect(queued.hasPrefix("A test event is queued for webhook \(ending(id)): delivery ending "), "\(tested)")
        #expect(tested.stdout.hasSuffix("\nSee how it went with 'vouch webhook deliveries \(id)'.\n"))
        #expect(receiver.wait(for: 1).first?.type == "webhook.test")
        let delivery = try waitForDelivery(server, webhook: id, status: "succeeded")
        let deliveryID = try #require(delivery["id"]?.stringValue)
        let line = "\(deliveryID): webhook test event for webhook \(id); succeeded, 1 attempt, last answer status 200; created on \(ConsoleTime.say(delivery["created_at"]?.stringValue))."
        #expect(try server.vouch("webhook", "deliveries", id) == VouchRun(status: 0, stdout: "\(line)\n1 delivery.\n", stderr: ""))
        #expect(try server.vouch("webhook", "deliveries", "--status", "succeeded", "--all").stdout == "\(line)\n1 delivery.\n")
        #expect(try server.vouch("webhook", "deliveries", id, "--status", "dead").stdout == "No deliveries.\n")

        // Only a dead or cancelled delivery is sent again.
        #expect(try server.vouch("webhook", "redeliver", deliveryID) == VouchRun(status: 65, stdout: "", stderr: """
            Error: delivery \(deliveryID) has the status succeeded; only dead or cancelled deliveries can be redelivered

            """))

        #expect(try server.vouch("webhook", "delete", id) == VouchRun(status: 0, stdout: "Webhook \(ending(id)) is deleted.\n", stderr: ""))
        #expect(try server.vouch("webhook", "list").stdout == "No webhooks.\n")
        #expect(try server.vouch("webhook", "show", id) == VouchRun(status: 65, stdout: "", stderr: "Error: no webhook '\(id)'\n"))

        // Webhooks are the admin's.
        let rita = try server.token(role: "release_manager", name: "rita")
        #expect(try server.vouch(["webhook", "list"], as: .token(rita)).status == 77)
    }

    @Test func refusedAddress() throws {
        let server = try DaemonProcess(environment: DaemonProcess.promotionEnvironment)
        defer { server.stop() }
        let refused = try server.vouch("webhook", "add", "ftp://hooks.example.org/vouch")
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("Error: 1 field is not valid\n  URL: "), "\(refused)")
    }

    /// Polls the webhook's deliveries until the first has `status`, for up to 10 s; returns it.
    private func waitForDelivery(_ server: DaemonProcess, webhook: String, status: String) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(10)
        var delivery = JSONValue.null
        repeat {
            delivery = try server.json("webhook", "deliveries", webhook)["deliveries"]?.arrayValue?.first ?? .null
            if delivery["status"]?.stringValue == status { break }
            usleep(50_000)
        } while Date() < deadline
        #expect(delivery["status"]?.stringValue == status, "\(delivery)")
        return delivery
    }
}
