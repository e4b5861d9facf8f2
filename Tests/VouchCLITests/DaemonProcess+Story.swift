import Foundation
import VouchJSON
import VouchTestSupport

extension DaemonProcess {
    static let fixKey = "tv-channel-selector-labels"

    /// Criteria a test can meet in seconds (one passing VoiceOver tester on iOS, no soak, one approval), webhooks to
    /// loopback receivers allowed, and retries after 1 s.
    static let promotionEnvironment = [
        "VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s,1s", "VOUCHD_CRITERIA_MIN_SOAK": "0",
        "VOUCHD_CRITERIA_REQUIRED_ASSISTIVE_TECH": "ios:voiceover", "VOUCHD_CRITERIA_MIN_TESTERS_PASSED": "1",
    ]

    /// Creates a token through `vouch token create` and returns its secret.
    func token(role: String, name: String) throws -> String {
        let run = try vouch("token", "create", "--name", name, "--role", role)
        guard run.status == 0, let line = run.stdout.split(separator: "\n").first(where: { $0.hasPrefix("Secret: vch_") }) else {
            throw DaemonStartFailure(log: "token create: \(run)")
        }
        return String(line.dropFirst("Secret: ".count))
    }

    /// The story's fix, started, and Ana added as a tester with VoiceOver and two targeting keys; returns her id.
    func startedFixAndTester(enrolled: Bool = true) throws -> String {
        for arguments in [["fix", "create", DaemonProcess.fixKey, "--title", "Label the channel logos", "--ui-area", "TV channel selector", "--platform", "ios"],
                          ["fix", "start", DaemonProcess.fixKey]] {
            let run = try vouch(arguments)
            guard run.status == 0 else { throw DaemonStartFailure(log: "\(arguments): \(run)") }
        }
        let tester = try addTester()
        if enrolled {
            let run = try vouch("enroll", DaemonProcess.fixKey, tester)
            guard run.status == 0 else { throw DaemonStartFailure(log: "enroll: \(run)") }
        }
        return tester
    }

    /// Adds a tester through `vouch tester add` and returns the id it printed.
    func addTester(name: String = "Ana Example", technology: String = "voiceover:ios:18.2", keys: [String] = ["user-1", "tablet-9"]) throws -> String {
        let run = try vouch(["tester", "add", "--name", name, "--assistive-tech", technology, "--consent", "2026-11"] + keys.flatMap { ["--targeting-key", $0] })
        guard run.status == 0, let first = run.stdout.split(separator: "\n").first, first.hasPrefix("Tester t_") else {
            throw DaemonStartFailure(log: "tester add: \(run)")
        }
        return String(first.dropFirst("Tester ".count).prefix { $0 != " " })
    }

    /// The server's JSON answer to a `vouch … --json` command.
    func json(_ arguments: String...) throws -> JSONValue {
        let run = try vouch(arguments + ["--json"])
        guard run.status == 0 else { throw DaemonStartFailure(log: "\(arguments): \(run)") }
        return try JSONParser.parse(run.stdout)
    }
}
