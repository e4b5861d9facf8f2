import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// The story of docs/lifecycle.md ("The story") against a live vouchd: the TV channel selector's fix is created, switched on
/// for one user only, paused and resumed; bad input and an illegal transition are refused; the audit shows it all.
@Suite struct FullStoryTests {
    static let key = "tv-channel-selector-labels"

    @Test func channelSelectorFix() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let key = FullStoryTests.key

        let created = try server.vouch("fix", "create", key, "--title", "Label the channel logos", "--ui-area", "TV channel selector",
                                       "--platform", "ios", "--wcag", "1.1.1,4.1.2", "--expected", "NHK, button, selected")
        #expect(created.status == 0, "\(created)")
        #expect(created.stdout == """
            Fix tv-channel-selector-labels is created: draft, revision 1.
            Next: start testing with 'vouch fix start tv-channel-selector-labels', then add testers with 'vouch tester add' and enroll them with 'vouch enroll tv-channel-selector-labels <tester>'.
            To try it on a QA device instead, target the device's key with 'vouch fix target tv-channel-selector-labels --add <key>'.

            """, "\(created)")

        let list = try server.vouch("fix", "list")
        #expect(list == VouchRun(status: 0, stdout: """
            tv-channel-selector-labels: Label the channel logos. State draft, revision 1, UI area TV channel selector.
            1 fix.

            """, stderr: ""))

        let shown = try server.vouch("fix", "show", key)
        #expect(shown.status == 0)
        for line in ["Key: tv-channel-selector-labels", "Title: Label the channel logos", "UI area: TV channel selector", "State: draft",
                     "Revision: 1", "Platforms: iOS", "WCAG: 1.1.1 Non-text Content; 4.1.2 Name, Role, Value",
                     "Expected announcement: NHK, button, selected", "Next actions: start, revise, abandon"] {
            #expect(shown.stdout.contains(line + "\n"), "missing '\(line)' in \(shown)")
        }

        #expect(try server.vouch("fix", "start", key) == VouchRun(status: 0, stdout: "Fix tv-channel-selector-labels is now testing (revision 1).\n", stderr: ""))
        #expect(try server.vouch("fix", "target", key, "--add", "user-1") == VouchRun(status: 0, stdout: """
            Added: user-1
            Fix tv-channel-selector-labels now targets 1 key.

            """, stderr: ""))
        #expect(try server.vouch("fix", "target", "list", key) == VouchRun(status: 0, stdout: "user-1\nFix tv-channel-selector-labels targets 1 key.\n", stderr: ""))

        try expectEvaluation(server, user: "user-1", value: "true", variant: "on", reason: "targeting match (this key is targeted)", state: "testing")
        try expectEvaluation(server, user: "user-2", value: "false", variant: "off", reason: "default (the fix is in testing and this key is not targeted)",
                             state: "testing")
        #expect(try server.vouch("fix", "pause", key).stdout == "Fix tv-channel-selector-labels is now paused (revision 1).\n")
        try expectEvaluation(server, user: "user-1", value: "false", variant: "off", reason: "disabled (the fix is off for everyone in its state)", state: "paused")
        #expect(try server.vouch("fix", "resume", key).stdout == "Fix tv-channel-selector-labels is now testing (revision 1).\n")
        try expectEvaluation(server, user: "user-1", value: "true", variant: "on", reason: "targeting match (this key is targeted)", state: "testing")

        // Bad input: every field the server refused is named under the detail, in words.
        let invalid = try server.vouch("fix", "create", "TV Selector", "--title", "x", "--ui-area", "TV channel selector", "--platform", "ios", "--wcag", "4.1.1")
        #expect(invalid.status == 65)
        #expect(invalid.stdout == "")
        #expect(invalid.stderr.hasPrefix("Error: 2 fields are not valid\n"), "\(invalid)")
        #expect(invalid.stderr.contains("\n  key: must be 1 to 100 characters"))
        #expect(invalid.stderr.contains("\n  WCAG, item 1: 4.1.1 Parsing (Obsolete and removed) was removed from WCAG 2.2"))

        // An illegal transition: the 409's detail names the state and what is allowed.
        let illegal = try server.vouch("fix", "start", key)
        #expect(illegal.status == 65)
        #expect(illegal.stderr.hasPrefix("Error: cannot start a fix in state testing; allowed actions in this state: revise, pause, abandon"), "\(illegal)")

        let missing = try server.vouch("eval", "no-such-fix", "--key", "user-1")
        #expect(missing == VouchRun(status: 65, stdout: "", stderr: "Error: flag not found: no fix has the flag key 'no-such-fix'\n"))

        // The audit tells each event as a sentence, the actions and states in words.
        let times = (try server.json("audit", "--fix", key)["events"]?.arrayValue ?? []).map { ConsoleTime.say($0["at"]?.stringValue) }
        try #require(times.count == 5)
        #expect(try server.vouch("audit", "--fix", key) == VouchRun(status: 0, stdout: """
            \(times[0]): admin created fix tv-channel-selector-labels, state draft.
            \(times[1]): admin started testing fix tv-channel-selector-labels, state draft to testing.
            \(times[2]): admin changed the direct targets of fix tv-channel-selector-labels, added user-1.
            \(times[3]): admin paused fix tv-channel-selector-labels, state testing to paused.
            \(times[4]): admin resumed fix tv-channel-selector-labels, state paused to testing.
            5 events.

            """, stderr: ""))
        // Narrowed by action, principal and time, as the console's audit page narrows it.
        #expect(try server.vouch("audit", "--fix", key, "--action", "fix.pause", "--principal", "admin", "--since", "2000-01-01") == VouchRun(
            status: 0, stdout: "\(times[3]): admin paused fix tv-channel-selector-labels, state testing to paused.\n1 event.\n", stderr: ""))
        #expect(try server.vouch("audit", "--until", "2000-01-01").stdout == "No events.\n")

        // --json prints the API's own JSON.
        for arguments in [["fix", "list", "--json"], ["--json", "fix", "show", key], ["audit", "--fix", key, "--json"], ["eval", key, "--key", "user-1", "--json"]] {
            let run = try VouchRun.run(arguments, environment: ["VOUCH_URL": server.url, "VOUCH_TOKEN": server.adminToken])
            #expect(run.status == 0)
            let json = try JSONParser.parse(run.stdout)
            #expect(json.objectValue != nil, "\(run)")
        }
        let listed = try JSONParser.parse(try server.vouch("fix", "list", "--json").stdout)
        #expect(listed["fixes"]?.arrayValue?.first?["key"] == .string(key))
        #expect(listed["next_cursor"] == .null)
    }

    private func expectEvaluation(_ server: DaemonProcess, user: String, value: String, variant: String, reason: String, state: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try server.vouch("eval", FullStoryTests.key, "--key", user)
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        for line in ["Flag: tv-channel-selector-labels", "Targeting key: \(user)", "Value: \(value)", "Variant: \(variant)",
                     "Reason: \(reason)", "Revision: 1", "State: \(state)"] {
            #expect(run.stdout.contains(line), "missing '\(line)' in \(run)", sourceLocation: sourceLocation)
        }
    }
}
