import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch feedback submit|list|summary` against a live vouchd.
@Suite struct FeedbackCommandsTests {
    static let key = DaemonProcess.fixKey

    /// Ana's report from the story, as options.
    static func anaReport(_ tester: String) -> [String] {
        ["feedback", "submit", key, "--tester", tester, "--verdict", "passed", "--task-outcome", "completed-with-workaround", "--severity", "minor",
         "--platform", "ios", "--os-version", "18.2", "--app-build", "5.4.1 (412)", "--assistive-tech", "voiceover", "--at-version", "18.2",
         "--device", "iPhone 15", "--name-announced", "yes", "--role-announced", "yes", "--state-announced", "no", "--focus-order", "n/a",
         "--heard", "NHK, button, selected", "--wcag", "4.1.2", "--comment", "Some issues, but usable"]
    }

    @Test func submitWithOptionsAndList() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.startedFixAndTester()

        let first = try server.vouch(Self.anaReport(tester))
        let records = try #require(try server.json("feedback", "list", Self.key)["feedback"]?.arrayValue)
        try #require(records.count == 1, "\(first)")
        let record = records[0]
        let id = try #require(record["id"]?.stringValue)
        #expect(first == VouchRun(status: 0, stdout: """
            Feedback is recorded for fix tv-channel-selector-labels, revision 1, reference \(ending(id)): tester \(ending(tester)), verdict passed, severity minor.

            """, stderr: ""))
        let expected: [String: JSONValue] = [
            "tester": .string(tester), "verdict": .string("passed"), "task_outcome": .string("completed_with_workaround"), "severity": .string("minor"),
            "platform": .string("ios"), "os_version": .string("18.2"), "app_build": .string("5.4.1 (412)"), "assistive_tech": .string("voiceover"),
            "at_version": .string("18.2"), "device": .string("iPhone 15"), "name_announced": .string("yes"), "role_announced": .string("yes"),
            "state_announced": .string("no"), "focus_order": .string("n/a"), "heard": .string("NHK, button, selected"), "wcag": .strings(["4.1.2"]),
            "comment": .string("Some issues, but usable"), "regression": .bool(false), "channel": .string("cli"), "recorded_by": .string("admin"),
        ]
        for (field, value) in expected {
            #expect(record[field] == value, "\(field)")
        }

        // Every submission carries its own Idempotency-Key: the same report sent again is a second record, not a replay.
        let second = try server.vouch(Self.anaReport(tester) + ["--regression"])
        #expect(second.status == 0)
        #expect(second.stdout.hasSuffix(", verdict passed, severity minor.\nIt blocks promotion: it reports a serious or critical problem, or a regression.\n"),
                "\(second)")
        let both = try #require(try server.json("feedback", "list", Self.key)["feedback"]?.arrayValue)
        #expect(both.count == 2)
        #expect(Set(both.compactMap { $0["id"]?.stringValue }).count == 2)

        let lines = both.map { record in
            "Feedback \(ending(record["id"]?.stringValue ?? "")): tester \(ending(tester)), revision 1, verdict passed, task completed with a workaround, severity minor, "
                + "VoiceOver 18.2 on iOS 18.2, app build 5.4.1 (412), recorded on \(ConsoleTime.say(record["recorded_at"]?.stringValue)) by admin through the command line."
        }
        #expect(try server.vouch("feedback", "list", Self.key) == VouchRun(status: 0, stdout: """
            \(lines[0]) Heard: NHK, button, selected. Comment: Some issues, but usable.
            \(lines[1]) Regression. Blocking. Heard: NHK, button, selected. Comment: Some issues, but usable.
            2 feedback records.

            """, stderr: ""))
        let page = try server.vouch("feedback", "list", Self.key, "--limit", "1")
        #expect(page.stdout.contains("\n1 feedback record.\nMore: run again with --all to list all feedback records, or with --cursor "), "\(page)")
        #expect(try server.vouch("feedback", "list", Self.key, "--limit", "1", "--all").stdout.hasSuffix("\n2 feedback records.\n"))
        #expect(try server.vouch("feedback", "list", Self.key, "--tester", "t_nobody").stdout == "No feedback records.\n")
        #expect(try server.vouch("feedback", "list", Self.key, "--revision", "2").stdout == "No feedback records.\n")
        #expect(try server.vouch("feedback", "list", Self.key, "--tester", tester, "--revision", "1").stdout.hasSuffix("\n2 feedback records.\n"))

        // The server's own checks come back as fields.
        let failedMinor = try server.vouch(Self.anaReport(tester).map { $0 == "passed" ? "failed" : $0 })
        #expect(failedMinor == VouchRun(status: 65, stdout: "", stderr: """
            Error: 1 field is not valid
              severity: a failed verdict needs severity moderate, serious or critical, got minor

            """))
    }

    @Test func submitFromAFile() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.startedFixAndTester()
        func record(_ verdict: String, _ severity: String, os: String = "18.2") -> String {
            #"{"tester":"\#(tester)","verdict":"\#(verdict)","task_outcome":"completed_independently","severity":"\#(severity)","platform":"ios","os_version":"\#(os)","app_build":"413","assistive_tech":"voiceover"}"#
        }
        let good = server.directory.appendingPathComponent("good.json")
        // The second version is typed with the platform's name, as the web console's hint suggests: it is said once.
        try "[\(record("passed", "none")),\(record("cant_tell", "minor", os: "iOS 18.2"))]".write(to: good, atomically: true, encoding: .utf8)
        let bad = server.directory.appendingPathComponent("bad.json")
        try "[\(record("passed", "none")),\(record("great", "none"))]".write(to: bad, atomically: true, encoding: .utf8)

        let refused = try server.vouch("feedback", "submit", Self.key, "--file", bad.path)
        #expect(refused == VouchRun(status: 65, stdout: "", stderr: """
            Error: 1 field is not valid
              record 2, verdict: 'great' is not allowed; allowed: passed, failed, cant_tell
            Nothing was recorded: the records of a file are recorded all together or not at all.

            """))
        #expect(try server.vouch("feedback", "list", Self.key).stdout == "No feedback records.\n")

        let accepted = try server.vouch("feedback", "submit", Self.key, "--file", good.path)
        let records = try #require(try server.json("feedback", "list", Self.key)["feedback"]?.arrayValue)
        try #require(records.count == 2, "\(accepted)")
        #expect(records.allSatisfy { $0["channel"]?.stringValue == "cli" })
        // Said in words: "can't tell", not cant_tell.
        let lines = records.map { record in
            "Feedback \(ending(record["id"]?.stringValue ?? "")): tester \(ending(tester)), revision 1, verdict \(record["verdict"]?.stringValue == "cant_tell" ? "can't tell" : "passed"), "
                + "task completed independently, severity \(record["severity"]?.stringValue ?? ""), VoiceOver on iOS 18.2, app build 413, "
                + "recorded on \(ConsoleTime.say(record["recorded_at"]?.stringValue)) by admin through the command line."
        }
        #expect(accepted == VouchRun(status: 0, stdout: """
            2 feedback records are recorded for fix tv-channel-selector-labels:
            \(lines[0])
            \(lines[1])

            """, stderr: ""))

        let missing = try server.vouch("feedback", "submit", Self.key, "--file", server.directory.appendingPathComponent("none.json").path)
        #expect(missing.status == 64, "a file that cannot be read is a wrong argument")
        #expect(missing.stderr.hasSuffix("none.json: No such file or directory.\n"))
        let notJSON = server.directory.appendingPathComponent("notes.txt")
        try "passed, works".write(to: notJSON, atomically: true, encoding: .utf8)
        let garbled = try server.vouch("feedback", "submit", Self.key, "--file", notJSON.path)
        #expect(garbled.status == 65)
        #expect(garbled.stderr.hasPrefix("Error: The file \(notJSON.path) is not JSON: invalid JSON at byte 0"), "\(garbled)")
        let both = try server.vouch("feedback", "submit", Self.key, "--file", good.path, "--verdict", "passed", "--regression")
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("Error: Give the feedback either in --file or as options, not both; remove '--verdict', '--regression'.\n"))
    }

    /// Without a terminal nobody can be asked: every missing option is named at once.
    @Test func missingFieldsWithoutATerminal() throws {
        let run = try VouchRun.run(["feedback", "submit", Self.key, "--verdict", "passed", "--platform", "ios"],
                                   environment: ["VOUCH_URL": ConnectionGoldenTests.deadServer, "VOUCH_TOKEN": "vch_unused"])
        #expect(run == VouchRun(status: 64, stdout: "", stderr: """
            Error: Missing required options '--tester <id>', '--task-outcome <outcome>', '--severity <severity>', '--os-version <version>', '--app-build <build>' and '--assistive-tech <technology>'.
            Usage: \(FeedbackCommandsTests.submitUsage)
            See 'vouch feedback submit --help'.

            """))
    }

    static let submitUsage = "vouch feedback submit <fix> --tester <id> --verdict <verdict> --task-outcome <outcome> --severity <severity> --platform <platform> "
        + "--os-version <version> --app-build <build> --assistive-tech <technology> [--at-version <version>] [--browser <browser>] "
        + "[--browser-version <version>] [--device <name>] [--name-announced <answer>] "
        + "[--role-announced <answer>] [--state-announced <answer>] [--focus-order <answer>] [--heard <text>] [--regression] [--wcag <criterion> ...] "
        + "[--comment <text>] [--file <file>]"

    @Test func summary() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let ana = try server.startedFixAndTester()
        #expect(try server.vouch("feedback", "summary", Self.key) == VouchRun(status: 0, stdout: """
            Fix: tv-channel-selector-labels
            Revision: 1
            Records: 0
            Testers: 0
            Verdicts: 0 passed, 0 failed, 0 can't tell
            By assistive technology: none
            By platform: none
            Latest verdicts: none
            Blocking reports: 0

            """, stderr: ""))
        let ben = try server.addTester(name: "Ben", technology: "talkback:android:15", keys: ["user-2"])
        #expect(try server.vouch("enroll", Self.key, ben).status == 0)
        // Ana fails first, then passes: her latest counts. Ben fails with a critical problem: blocking.
        #expect(try server.vouch(Self.anaReport(ana).map { $0 == "passed" ? "failed" : ($0 == "minor" ? "serious" : $0) }).status == 0)
        #expect(try server.vouch(Self.anaReport(ana)).status == 0)
        #expect(try server.vouch("feedback", "submit", Self.key, "--tester", ben, "--verdict", "failed", "--task-outcome", "not_completed",
                                 "--severity", "critical", "--platform", "android", "--os-version", "15", "--app-build", "5.4.1 (412)",
                                 "--assistive-tech", "talkback").status == 0)
        let json = try server.json("feedback", "summary", Self.key)
        let latest = try #require(json["latest"]?.arrayValue)
        try #require(latest.count == 2)
        func brief(_ record: JSONValue) -> String {
            let technology = record["assistive_tech"]?.stringValue == "voiceover" ? "VoiceOver on iOS" : "TalkBack on Android"
            return "tester \(ending(record["tester"]?.stringValue ?? "")): \(record["verdict"]?.stringValue ?? ""), severity \(record["severity"]?.stringValue ?? ""), "
                + "\(technology), feedback \(ending(record["feedback"]?.stringValue ?? "")), recorded on \(ConsoleTime.say(record["recorded_at"]?.stringValue))."
        }
        let benRecord = try #require(latest.first { $0["tester"]?.stringValue == ben })
        let anaRecord = try #require(latest.first { $0["tester"]?.stringValue == ana })
        #expect(try server.vouch("feedback", "summary", Self.key) == VouchRun(status: 0, stdout: """
            Fix: tv-channel-selector-labels
            Revision: 1
            Records: 3
            Testers: 2
            Verdicts: 1 passed, 1 failed, 0 can't tell
            By assistive technology: VoiceOver 1 passed, 0 failed, 0 can't tell; TalkBack 0 passed, 1 failed, 0 can't tell
            By platform: iOS 1 passed, 0 failed, 0 can't tell; Android 0 passed, 1 failed, 0 can't tell
            Latest verdict of \(brief(latest[0]))
            Latest verdict of \(brief(latest[1]))
            Blocking reports: 1
            Blocking report by \(brief(benRecord))

            """, stderr: ""))
        #expect(anaRecord["verdict"]?.stringValue == "passed")
    }
}
