import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// Testers against a live vouchd: added with consent, listed, shown, changed, exported and withdrawn; enrollment
/// turns the fix's flag on for their keys and withdrawal turns it off.
@Suite struct TesterCommandsTests {
    static let key = DaemonProcess.fixKey

    @Test func testerLifecycle() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let id = try server.startedFixAndTester(enrolled: false)
        #expect(id.count == 14 && id.hasPrefix("t_"))

        #expect(try server.vouch("tester", "list") == VouchRun(status: 0, stdout: """
            \(id): Ana Example, active. Uses VoiceOver 18.2 on iOS. 2 targeting keys.
            1 tester.

            """, stderr: ""))
        let json = try server.json("tester", "show", id)
        let created = try #require(json["created_at"]?.stringValue)
        #expect(try server.vouch("tester", "show", id) == VouchRun(status: 0, stdout: """
            Id: \(id)
            Status: active
            Name: Ana Example
            Contact: none
            Email: none
            Assistive technology: VoiceOver 18.2 on iOS
            Targeting keys: tablet-9, user-1
            Consent: version 2026-11, given on \(ConsoleTime.say(created)), recorded by admin
            Created: \(ConsoleTime.say(created))
            Updated: \(ConsoleTime.say(created))

            """, stderr: ""))

        // Enrollment turns the flag on for each of the tester's keys.
        try expectFlag(server, "user-1", on: false)
        #expect(try server.vouch("enroll", Self.key, id) == VouchRun(status: 0, stdout: """
            Enrolled: tester \(ending(id))
            Fix tv-channel-selector-labels now has 1 enrolled tester.

            """, stderr: ""))
        try expectFlag(server, "user-1", on: true)
        try expectFlag(server, "tablet-9", on: true)
        #expect(try server.vouch("enroll", Self.key, id).stdout == "Enrolled: none; every tester given was already enrolled\nFix tv-channel-selector-labels now has 1 enrolled tester.\n")
        let enrolledAt = try #require(try server.json("enroll", Self.key, "--list")["enrollments"]?.arrayValue?.first?["enrolled_at"]?.stringValue)
        let enrolled = """
            \(id): enrolled on \(ConsoleTime.say(enrolledAt)) by admin.
            Fix tv-channel-selector-labels has 1 enrolled tester.

            """
        #expect(try server.vouch("enroll", Self.key, "--list") == VouchRun(status: 0, stdout: enrolled, stderr: ""))
        // The shape of 'vouch fix list' and 'vouch tester list' lists too.
        #expect(try server.vouch("enroll", "list", Self.key) == VouchRun(status: 0, stdout: enrolled, stderr: ""))

        // The flag follows the tester's keys.
        #expect(try server.vouch("tester", "update", id, "--targeting-key", "user-1", "--contact", "ana@example.org")
                == VouchRun(status: 0, stdout: "Tester \(ending(id)) is updated.\n", stderr: ""))
        try expectFlag(server, "tablet-9", on: false)
        let updated = try server.vouch("tester", "show", id).stdout
        #expect(updated.contains("\nContact: ana@example.org\n") && updated.contains("\nTargeting keys: user-1\n"), "\(updated)")
        #expect(try server.vouch("tester", "update", id, "--contact=").status == 0)
        #expect(try server.vouch("tester", "show", id).stdout.contains("\nContact: none\n"))
        // An address for mail, apart from the contact; one that is not an address is refused by name.
        #expect(try server.vouch("tester", "update", id, "--email", "ana@example.org").status == 0)
        #expect(try server.vouch("tester", "show", id).stdout.contains("\nEmail: ana@example.org\n"))
        let notAnAddress = try server.vouch("tester", "update", id, "--email", "ana at example")
        #expect(notAnAddress.status == 65 && notAnAddress.stderr.contains("email") && !notAnAddress.stderr.contains("ana at example"), "\(notAnAddress)")
        #expect(try server.vouch("tester", "update", id, "--email=").status == 0)
        #expect(try server.vouch("tester", "show", id).stdout.contains("\nEmail: none\n"))
        let nothing = try server.vouch("tester", "update", id)
        #expect(nothing.status == 64)
        #expect(nothing.stderr.hasPrefix("Error: Give at least one field to change: --name, --contact, --email, --assistive-tech, --targeting-key or --consent.\n"))

        // The export holds everything; written to a file, only its owner may read it.
        let export = try server.json("tester", "export", id)
        #expect(export["tester"]?["name"]?.stringValue == "Ana Example")
        #expect(export["enrollments"]?.arrayValue?.first?["fix"]?.stringValue == Self.key)
        let file = server.directory.appendingPathComponent("ana.json").path
        #expect(try server.vouch("tester", "export", id, "--output", file) == VouchRun(status: 0, stdout: """
            Tester \(ending(id))'s data is written to \(file), readable only by you.
            It holds personal data: keep it safe, and delete it once it has been handed over.

            """, stderr: ""))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let written = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(written["tester"] == export["tester"])
        let printed = try server.vouch("tester", "export", id)
        #expect(printed.status == 0 && printed.stdout.hasPrefix("{\n") && printed.stdout.contains("\"Ana Example\""))

        // Without a terminal nobody can be asked, so nothing is erased without --yes.
        #expect(try server.vouch("tester", "withdraw", id) == VouchRun(status: 64, stdout: "", stderr: """
            Error: Withdrawing tester \(id) erases their personal data and cannot be undone; add --yes to confirm without a terminal.
            Usage: vouch tester withdraw <id> [--purge-feedback] [--yes]
            See 'vouch tester withdraw --help'.

            """))
        #expect(try server.vouch("tester", "withdraw", id, "--purge-feedback").status == 64)
        #expect(try server.vouch("tester", "show", id).stdout.contains("\nName: Ana Example\n"))
        try expectFlag(server, "user-1", on: true)

        // With --yes the withdrawal erases and turns the flag off.
        #expect(try server.vouch("tester", "withdraw", id, "--yes") == VouchRun(status: 0, stdout: """
            Tester \(ending(id)) has withdrawn: their name, contact, assistive technologies and targeting keys are erased, and their enrollments ended.
            Feedback kept without comments, unlinked: 0
            Feedback deleted: 0
            Tokens revoked: 0

            """, stderr: ""))
        try expectFlag(server, "user-1", on: false)
        #expect(try server.vouch("enroll", Self.key, "--list").stdout == "Fix tv-channel-selector-labels has no enrolled testers.\n")
        let withdrawnAt = try #require(try server.json("tester", "show", id)["withdrawn_at"]?.stringValue)
        #expect(try server.vouch("tester", "list").stdout == "\(id): withdrawn on \(ConsoleTime.say(withdrawnAt)); their personal data is erased.\n1 tester.\n")
        let again = try server.vouch("enroll", Self.key, id)
        #expect(again.status == 65)
        #expect(again.stderr == "Error: 1 field is not valid\n  testers, item 1: tester '\(id)' has withdrawn and cannot be enrolled\n")
    }

    @Test func enrollAndRemoveSeveral() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let ana = try server.startedFixAndTester(enrolled: false)
        let ben = try server.addTester(name: "Ben", technology: "talkback:android:15", keys: ["user-2"])
        #expect(try server.vouch("enroll", Self.key, ana, ben).stdout == "Enrolled: tester \(ending(ana)), tester \(ending(ben))\nFix tv-channel-selector-labels now has 2 enrolled testers.\n")
        try expectFlag(server, "user-2", on: true)
        #expect(try server.vouch("enroll", Self.key, "--remove", ben) == VouchRun(status: 0, stdout: """
            Removed: tester \(ending(ben))
            Fix tv-channel-selector-labels now has 1 enrolled tester.

            """, stderr: ""))
        try expectFlag(server, "user-2", on: false)
        try expectFlag(server, "user-1", on: true)
        // The first removal is done and told; the one that is not enrolled is refused.
        let partly = try server.vouch("enroll", Self.key, ana, ben, "--remove")
        #expect(partly == VouchRun(status: 65, stdout: "Removed: tester \(ending(ana))\n",
                                   stderr: "Error: tester \(ben) is not enrolled in fix tv-channel-selector-labels\n"))
        let unknown = try server.vouch("enroll", Self.key, "t_nobody")
        #expect(unknown == VouchRun(status: 65, stdout: "", stderr: "Error: 1 field is not valid\n  testers, item 1: no tester 't_nobody'\n"))

        let audit = try server.vouch("audit", "--fix", Self.key).stdout
        #expect(audit.contains(": admin enrolled testers in fix tv-channel-selector-labels: tester \(ending(ana)), tester \(ending(ben)).\n"), "\(audit)")
        #expect(audit.contains(": admin removed testers from fix tv-channel-selector-labels: tester \(ending(ben)).\n"), "\(audit)")
    }

    @Test(arguments: [
        (["enroll", "tv"], "Error: Missing expected argument '<tester>'. To list the testers enrolled, run 'vouch enroll list tv'."),
        (["enroll", "list"], "Error: Missing expected argument '<tester>'. To list the testers enrolled, run 'vouch enroll list <fix>'."),
        (["enroll", "list", "tv", "--remove"], "Error: Give either --list or --remove, not both."),
        (["enroll", "tv", "t_a", "--list"], "Error: --list takes no tester ids; remove 't_a'."),
        (["enroll", "tv", "--list", "--remove"], "Error: Give either --list or --remove, not both."),
        (["enroll", "tv", "t_a/b"], "Error: Invalid value 't_a/b' for '<tester>': a tester id is letters, digits and '_', such as t_4w9tedpdf8fc."),
        (["enroll", "tv", "--panel", "p_a", "--list"], "Error: --panel enrolls; it goes with neither --list nor --remove."),
    ])
    func enrollUsageErrors(_ arguments: [String], _ error: String) throws {
        #expect(try VouchRun.run(arguments, environment: ["VOUCH_URL": ConnectionGoldenTests.deadServer, "VOUCH_TOKEN": "vch_unused"])
                == VouchRun(status: 64, stdout: "", stderr: """
                    \(error)
                    Usage: vouch enroll <fix> [<tester> ...] [--panel <panel> ...] [--remove] [--list]
                    See 'vouch enroll --help'.

                    """))
    }

    @Test func testerToken() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let id = try server.startedFixAndTester()
        let created = try server.vouch("token", "create", "--name", "ana-phone", "--role", "tester", "--tester", id)
        #expect(created.status == 0, "\(created)")
        let lines = created.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        #expect(lines[0].hasPrefix("Token tok_") && lines[0].hasSuffix(" is created for ana-phone."))
        // A tester token is issued to its tester.
        #expect(Array(lines[1...2]) == ["Principal: tester \(ending(id))", "Role: tester, for tester \(ending(id))"])
        let secret = String(lines[3].dropFirst("Secret: ".count))
        #expect(secret.hasPrefix("vch_"))
        #expect(try server.vouch("token", "list").stdout.contains(": ana-phone. Principal: tester \(ending(id)). Role: tester, for tester \(ending(id)). Created "))

        // The tester reaches their own record and fix, nothing else.
        #expect(try server.vouch("tester", "show", id, as: .token(secret)).stdout.hasPrefix("Id: \(id)\n"))
        #expect(try server.vouch("fix", "show", Self.key, as: .token(secret)).status == 0)
        #expect(try server.vouch("tester", "list", as: .token(secret)).status == 77)

        // Withdrawing revokes the tester's tokens.
        #expect(try server.vouch("tester", "withdraw", id, "--yes").stdout.contains("\nTokens revoked: 1\n"))
        #expect(try server.vouch("tester", "show", id, as: .token(secret)).status == 77)
    }

    @Test(arguments: [
        (["--role", "tester"], "Error: A tester token belongs to one tester: give '--tester <id>'."),
        (["--role", "sdk", "--tester", "t_a"], "Error: Only a token with the role tester belongs to a tester; remove '--tester' or use '--role tester'."),
        (["--role", "tester", "--tester", "t_a", "--principal", "Ana"], "Error: A tester token is issued to its tester; remove '--principal'."),
    ])
    func testerTokenUsageErrors(_ options: [String], _ error: String) throws {
        #expect(try VouchRun.run(["token", "create", "--name", "ana"] + options) == VouchRun(status: 64, stdout: "", stderr: """
            \(error)
            Usage: vouch token create --name <name> --role <role> [--principal <name>] [--tester <id>] [--email <address>] [--no-event-streams] [--flag-definitions]
            See 'vouch token create --help'.

            """))
    }

    /// On a terminal, withdrawal asks first; anything but "yes" withdraws nothing.
    @Test func withdrawalAsksOnATerminal() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let id = try server.startedFixAndTester()
        let declined = try TerminalSession(["tester", "withdraw", id], environment: server.environment())
        try declined.expect("Withdraw tester \(ending(id))? This erases their name, contact, assistive technologies and targeting keys, ends their enrollments, "
                            + "revokes their tokens and removes their feedback's comments. Type yes to continue: ")
        try declined.type("no")
        #expect(try declined.waitForExit() == 1)
        #expect(declined.rest == "no\nNot withdrawn.\n")
        try expectFlag(server, "user-1", on: true)

        let confirmed = try TerminalSession(["tester", "withdraw", id, "--purge-feedback"], environment: server.environment())
        try confirmed.expect("revokes their tokens and deletes their feedback. Type yes to continue: ")
        try confirmed.type("yes")
        #expect(try confirmed.waitForExit() == 0)
        #expect(confirmed.rest.hasPrefix("yes\nTester \(ending(id)) has withdrawn:"), "\(confirmed.transcript)")
        try expectFlag(server, "user-1", on: false)

        // --yes skips the question.
        let other = try server.addTester(name: "Ben", technology: "talkback:android", keys: ["user-2"])
        let skipped = try TerminalSession(["tester", "withdraw", other, "--yes"], environment: server.environment())
        #expect(try skipped.waitForExit() == 0)
        #expect(skipped.transcript.hasPrefix("Tester \(ending(other)) has withdrawn:"), "\(skipped.transcript)")
    }

    private func expectFlag(_ server: DaemonProcess, _ user: String, on: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try server.vouch("eval", Self.key, "--key", user)
        #expect(run.stdout.contains("Value: \(on)\n"), "\(user): \(run)", sourceLocation: sourceLocation)
        #expect(run.stdout.contains(on ? "Reason: targeting match (" : "Reason: default ("), "\(user): \(run)", sourceLocation: sourceLocation)
    }
}
