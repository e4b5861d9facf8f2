import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch fix criteria` and `vouch fix rollout` against a live vouchd with its default criteria.
@Suite struct FixCriteriaRolloutTests {
    static let key = DaemonProcess.fixKey

    @Test func aFixSaysTheLanguageItsTextIsWrittenIn() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let created = try server.vouch("fix", "create", Self.key, "--title", "チャンネルのロゴに名前を付ける", "--ui-area", "チャンネル選択",
                                       "--platform", "ios", "--language", "ja")
        try #require(created.status == 0, "\(created)")
        #expect(try server.json("fix", "show", Self.key)["language"] == .string("ja"))
        #expect(try server.vouch("fix", "update", Self.key, "--language", "en").status == 0)
        #expect(try server.vouch("fix", "show", Self.key).stdout.contains("\nWritten in: en\n"))
        let refused = try server.vouch("fix", "update", Self.key, "--language", "fr")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("en, ja"), "\(refused)")
    }

    @Test func criteriaOverridesChangeTheStatus() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let created = try server.vouch("fix", "create", Self.key, "--title", "Label the channel logos", "--ui-area", "TV channel selector", "--platform", "ios")
        try #require(created.status == 0, "\(created)")

        // A draft has not soaked at all, so the whole status is fixed text: every criterion and override in words, and, since a draft
        // cannot be promoted, what to do first in place of what is missing.
        let set = try server.vouch("fix", "criteria", Self.key, "--min-testers-passed", "3", "--required-assistive-tech", "ios:switch_control",
                                   "--min-soak", "2h", "--min-pass-ratio", "0.9")
        #expect(set == VouchRun(status: 0, stdout: """
            Criteria overrides: minimum passing testers 3; required assistive technologies Switch Control on iOS; minimum pass ratio 0.9; time in testing before promotion 2 hours
            Fix: tv-channel-selector-labels
            State: draft
            Revision: 1
            Criteria met: 1 of 6
            Criterion minimum passing testers: not met. 0 of 3 passing testers.
            Criterion required assistive technologies: not met. 0 of 1 required assistive technologies covered.
              Switch Control on iOS: no passing tester yet
            Criterion maximum blocking reports: met. 0 blocking reports (at most 0 allowed).
            Criterion minimum pass ratio: not met. Pass ratio: no passed or failed verdicts yet; 0.90 needed.
            Criterion time in testing before promotion: not met. Revision 1 has not entered testing yet; 2 hours needed.
            Criterion required approvals: not met. 0 of 1 valid approval.
            Approvals: none
            Promotion: not started: the fix is a draft and must be started before it can be promoted; start testing with 'vouch fix start tv-channel-selector-labels'

            """, stderr: ""))
        let sent = try server.json("fix", "show", Self.key)["criteria"]
        #expect(sent == .object(["min_testers_passed": .int(3), "required_assistive_tech": .strings(["ios:switch_control"]), "min_pass_ratio": .number(0.9),
                                 "min_soak": .string("2h")]))
        #expect(try server.vouch("fix", "show", Self.key).stdout.contains(
            "\nCriteria overrides: minimum passing testers 3; required assistive technologies Switch Control on iOS; minimum pass ratio 0.9; time in testing before promotion 2 hours\n"))

        // With no option nothing changes; the overrides and the status are shown.
        let shown = try server.vouch("fix", "criteria", Self.key)
        #expect(shown.stdout == set.stdout, "\(shown)")

        // The options given replace every earlier override; "" requires no technology.
        let replaced = try server.vouch("fix", "criteria", Self.key, "--approvals-required", "2", "--required-assistive-tech", "")
        let lines = replaced.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Criteria overrides: required assistive technologies none; required approvals 2", "\(replaced)")
        for line in ["Criterion minimum passing testers: not met. 0 of 2 passing testers.", "Criterion required assistive technologies: met. No assistive technology required.",
                     "Criterion time in testing before promotion: not met. Revision 1 has not entered testing yet; 24 hours needed.",
                     "Criterion required approvals: not met. 0 of 2 valid approvals."] {
            #expect(lines.contains(line), "missing '\(line)' in \(replaced)")
        }
        #expect(try server.vouch("fix", "criteria", Self.key, "--reset").stdout.hasPrefix(
            "Criteria overrides: none; every criterion follows the server's defaults\nFix: tv-channel-selector-labels\n"))
        #expect(try server.json("fix", "show", Self.key)["criteria"] == .object([:]))

        let refused = try server.vouch("fix", "criteria", Self.key, "--required-assistive-tech", "ios:screen_reader")
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("Error: 1 field is not valid\n  required assistive technologies: 'ios:screen_reader' is not platform:technology"), "\(refused)")
        let json = try server.json("fix", "criteria", Self.key, "--max-blocking", "1")
        #expect(json["criteria"]?.arrayValue?.first { $0["name"] == .string("max_blocking") }?["summary"] == .string("0 blocking reports (at most 1 allowed)"))
    }

    @Test func rolloutPlanShowsInFixShow() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        _ = try server.startedFixAndTester(enrolled: false)
        let rita = try server.token(role: "release_manager", name: "rita")
        #expect(try server.vouch("fix", "show", Self.key).stdout.contains("\nRollout plan: everyone at once\n"))

        #expect(try server.vouch(["fix", "rollout", Self.key, "--phased", "--steps", "10,50,100", "--interval", "1h"], as: .token(rita)) == VouchRun(
            status: 0, stdout: "Once promoted, fix tv-channel-selector-labels will be released in phases of 10, 50 and 100 percent of users, one step every hour.\n",
            stderr: ""))
        #expect(try server.vouch("fix", "show", Self.key).stdout.contains(
            "\nRollout plan: in phases of 10, 50 and 100 percent of users, one step every hour\n"))
        // Without steps and interval, the server's defaults.
        #expect(try server.vouch("fix", "rollout", Self.key, "--phased").stdout
                == "Once promoted, fix tv-channel-selector-labels will be released in phases of 1, 2, 5, 10, 20, 50 and 100 percent of users, one step every day.\n")
        let rollout = try server.json("fix", "show", Self.key)["rollout"]
        #expect(rollout?["steps"] == .array([1, 2, 5, 10, 20, 50, 100].map(JSONValue.int)))
        #expect(rollout?["interval"] == .string("1d"))

        let bad = try server.vouch("fix", "rollout", Self.key, "--phased", "--steps", "50,10", "--interval", "soon")
        #expect(bad == VouchRun(status: 65, stdout: "", stderr: """
            Error: 2 fields are not valid
              interval: must be a duration such as 90s, 15m, 24h or 7d (from 1s to 90d)
              steps: must be increasing percentages from 1 to 100 ending with 100, such as 1,2,5,10,20,50,100

            """))
        #expect(try server.vouch("fix", "rollout", Self.key, "--all-at-once").stdout
                == "Once promoted, fix tv-channel-selector-labels will be released to everyone at once.\n")
        #expect(try server.vouch("fix", "show", Self.key).stdout.contains("\nRollout plan: everyone at once\n"))
        // A maintainer may not choose how a fix is released.
        let maintainer = try server.token(role: "maintainer", name: "mia")
        #expect(try server.vouch(["fix", "rollout", Self.key, "--all-at-once"], as: .token(maintainer)).status == 77)
    }
}
