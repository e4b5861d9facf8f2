import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch token create --no-event-streams` and `vouch webhook add|update --format`, against a live vouchd: what a
/// person hears back, and that a format that cannot be required is refused.
@Suite struct ReceiverCommandsTests {
    @Test func aTokenWithoutPushSaysSo() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let made = try server.vouch("token", "create", "--name", "android-app", "--role", "sdk", "--no-event-streams")
        #expect(made.status == 0, "\(made)")
        let lines = made.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Push: off, flag answers carry no event stream"), "\(made)")
        let listed = try server.vouch("token", "list")
        let line = try #require(listed.stdout.split(separator: "\n").first { $0.contains("android-app") }, "\(listed)")
        #expect(line.contains(" Role: SDK. Push: off, flag answers carry no event stream. Created on "), "\(line)")
        #expect(try server.json("token", "list")["tokens"]?.arrayValue?.first { $0["name"]?.stringValue == "android-app" }?["event_streams"] == .bool(false))
        // A token made as before offers push and says nothing about it.
        let plain = try server.vouch("token", "create", "--name", "web-app", "--role", "sdk")
        #expect(!plain.stdout.contains("Push"), "\(plain)")
    }

    @Test func webhooksOfEachFormatAreAddedShownAndChanged() throws {
        let tokens = try TemporaryDirectory("vouch-cli-webhook-tokens")
        try "ghp_cliTestToken\n".write(toFile: tokens.file("deploy"), atomically: true, encoding: .utf8)
        let server = try DaemonProcess(environment: [
            "VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", "VOUCHD_WEBHOOKS_TOKEN_DIRECTORY": tokens.path,
            "VOUCHD_CONSOLE_PUBLIC_URL": "https://vouch.example.org",
        ])
        defer { server.stop() }
        let url = "http://127.0.0.1:9/repos/example/app/dispatches"
        let added = try server.vouch("webhook", "add", url, "--format", "github-dispatch", "--token-file", "deploy", "--events", "fix.released")
        #expect(added.status == 0, "\(added)")
        // One line: a dispatch is not signed, so no secret is offered to keep.
        let lines = added.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 1, "\(added)")
        let id = String(lines[0].dropFirst("Webhook ".count).prefix { $0 != " " })
        #expect(lines[0] == "Webhook \(id) is added: \(url); format: GitHub repository dispatch; events: fix released; required for promotion: no; enabled: yes.")
        let shown = try server.vouch("webhook", "show", id).stdout
        #expect(shown.contains("\nFormat: GitHub repository dispatch\n") && shown.contains("\nToken file: deploy, in webhooks.token_directory\n"), "\(shown)")
        #expect(!shown.contains("ghp_cliTestToken"))

        let changed = try server.vouch("webhook", "update", id, "--format", "slack", "--url", "http://127.0.0.1:9/services/T0/B0/X")
        #expect(changed.stdout == "Webhook \(ending(id)) is updated: http://127.0.0.1:9/services/T0/B0/X; format: Slack message; "
            + "events: fix released; required for promotion: no; enabled: yes.\n", "\(changed)")
        let required = try server.vouch("webhook", "update", id, "--required", "true")
        #expect(required.status == 65, "\(required)")
        #expect(required.stderr.contains("a slack webhook cannot be required for promotion"), "\(required)")
        let refused = try server.vouch("webhook", "add", url, "--format", "github-dispatch", "--token-file", "../admin.token")
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("token file"), "\(refused)")
    }
}
