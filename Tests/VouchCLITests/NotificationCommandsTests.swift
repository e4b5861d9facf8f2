import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// Notifications by email from a live vouchd configured as an operator would (`VOUCHD_NOTIFICATIONS_*`, the relay's
/// login in a file), to a real SMTP server, and `vouch notifications list` in plain lines.
@Suite struct NotificationCommandsTests {
    @Test func anEnrolledTestersMailGoesThroughTheRelayAndTheListSaysItWasSent() throws {
        try SMTPSink.run(login: "vouch:s3cret pass") { sink in
            let directory = try TemporaryDirectory("vouch-mail-cli")
            let credentials = directory.file("smtp-credentials")
            try "vouch\ns3cret pass\n".write(toFile: credentials, atomically: true, encoding: .utf8)
            let server = try DaemonProcess(environment: [
                "VOUCHD_NOTIFICATIONS_SMTP_URL": "smtp://127.0.0.1:\(sink.port)", "VOUCHD_NOTIFICATIONS_FROM": "vouch@example.org",
                "VOUCHD_NOTIFICATIONS_CREDENTIALS_FILE": credentials, "VOUCHD_CONSOLE_PUBLIC_URL": "https://vouch.example.org",
            ])
            defer { server.stop() }
            #expect(try server.vouch("notifications", "list") == VouchRun(status: 0, stdout: "No notifications.\n", stderr: ""))
            let id = try server.startedFixAndTester(enrolled: false)
            #expect(try server.vouch("tester", "update", id, "--email", "ana@example.org").status == 0)
            #expect(try server.vouch("enroll", DaemonProcess.fixKey, id).status == 0)
            let deadline = Date().addingTimeInterval(15)
            var listed = try server.json("notifications", "list")["notifications"]?.arrayValue ?? []
            while Date() < deadline, listed.first?["status"]?.stringValue != "sent" {
                usleep(50_000)
                listed = try server.json("notifications", "list")["notifications"]?.arrayValue ?? []
            }
            let notification = try #require(listed.first)
            let mails = try sink.received()
            #expect(mails.count == 1)
            #expect(mails.first?.login == "vouch")
            #expect(mails.first?.rcptTos == ["ana@example.org"])
            let notificationID = try #require(notification["id"]?.stringValue)
            let created = try #require(notification["created_at"]?.stringValue)
            #expect(try server.vouch("notifications", "list") == VouchRun(status: 0, stdout: """
                \(notificationID): kind tester enrolled, to \(id), language en, fix \(DaemonProcess.fixKey); status sent, 1 attempt; created on \(ConsoleTime.say(created)).
                1 notification.

                """, stderr: ""))
            #expect(try !server.vouch("notifications", "list", "--json").stdout.contains("ana@"), "the list never shows an address")
        }
    }
}
