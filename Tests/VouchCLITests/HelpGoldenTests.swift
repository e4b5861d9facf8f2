import Testing

/// `--help`, `help <command>` and `--version` print to stdout and exit 0, byte for byte as below.
@Suite struct HelpGoldenTests {
    static let rootHelp = """
        vouch: stage accessibility fixes behind per-user flags, and have them verified by the people who rely on assistive technology.

        Usage: vouch [--server <url>] [--token <token>] [--json] <command> [<arguments>]

        Commands:
          fix: Create, list, show and change accessibility fixes.
          tester: Add, list, show and change testers; withdraw them and export their data.
          enroll: Enroll testers in a fix, remove them, or list who is enrolled.
          feedback: Submit testers' feedback on a fix, list it, and sum it up.
          token: Create, list and revoke API tokens.
          audit: List the audit events: who changed what, and when, oldest first.
          eval: Evaluate a fix's flag for one user, as an app would.
          help: Show the help of a command, such as 'vouch help fix create'.

        Global options, accepted before or after the command:
          --server <url>: The Vouch server's address. Default: the VOUCH_URL environment variable, or http://127.0.0.1:8750.
          --token <token>: The API token to send. Default: the VOUCH_TOKEN environment variable.
          --json: Print the server's JSON answer instead of plain lines.
          -h, --help: Show help.
          --version: Show the version of vouch.

        Exit status: 0 success, 1 failure, 64 wrong command line, 65 input the server refused, 69 server unreachable, 77 no token or not allowed.

        See 'vouch help <command>' for the help of a command.

        """

    static let fixHelp = """
        Create, list, show and change accessibility fixes.

        A fix is one accessibility change in an app, staged behind a feature flag named by its key. It starts as a draft, off for everyone. 'start' begins testing: the flag turns on for the keys the fix targets. 'pause' turns it off for everyone until 'resume'.

        Usage: vouch fix <command> [<arguments>]

        Commands:
          create: Create a fix, as a draft.
          list: List fixes, in order of their keys.
          show: Show every field of one fix.
          update: Change a fix's title, UI area, platforms, WCAG criteria, expected announcement or description.
          start: Start testing a fix: its flag turns on for the keys it targets and stays off for everyone else.
          revise: Record a new revision of a fix after its implementation changed, such as a new build.
          pause: Pause a fix: its flag turns off for everyone, at once.
          resume: Resume a paused fix, in the state it was paused from.
          abandon: Abandon a fix for good: its flag stays off for everyone.
          rollback: Roll back a released fix: its flag turns off for everyone.
          target: List, add or remove the targeting keys a fix is on for directly, such as a tester's user id or a QA device.

        Global options: --server, --token, --json; see 'vouch --help'.
        See 'vouch help fix <command>' for the help of a command.

        """

    static let fixCreateHelp = """
        Create a fix, as a draft.

        Example: vouch fix create tv-channel-selector-labels --title "Label the channel logos" --ui-area "TV channel selector" --platform ios --wcag 1.1.1,4.1.2 --expected "NHK, button, selected"

        Usage: vouch fix create <key> --title <text> --ui-area <name> --platform <platform> ... [--wcag <criterion> ...] [--expected-announcement <text>] [--description <text>]

        Arguments:
          <key>: The new fix's flag key: 1 to 100 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit.

        Options:
          --title <text>: A short name for the fix, such as "Label the channel logos". Required.
          --ui-area <name>: The human name of the UI area the fix touches, such as "TV channel selector". Required.
          --platform <platform>: A platform the fix ships on. Allowed: ios, android, web. Repeat it, or separate values with commas. Required.
          --wcag <criterion>: A WCAG 2.2 success criterion the fix addresses, by number, such as 1.1.1 or 4.1.2. Repeat it, or separate values with commas.
          --expected-announcement <text> (also --expected): What a screen reader should say once the fix works, such as "NHK, button, selected".
          --description <text>: What changed and how to try it, for the people who test it.

        Global options: --server, --token, --json; see 'vouch --help'.

        """

    static let enrollHelp = """
        Enroll testers in a fix, remove them, or list who is enrolled.

        While the fix is in testing, its flag is on for the targeting keys of every enrolled tester.

        Example: vouch enroll tv-channel-selector-labels t_4w9tedpdf8fc

        Usage: vouch enroll <fix> [<tester> ...] [--remove] [--list]

        Arguments:
          <fix>: The fix's flag key, such as tv-channel-selector-labels.
          <tester>: A tester's id, such as t_4w9tedpdf8fc; give several to enroll or remove them all.

        Options:
          --remove: Remove the testers given from the fix instead of enrolling them.
          --list: List the testers enrolled in the fix.

        Global options: --server, --token, --json; see 'vouch --help'.

        """

    static let feedbackHelp = """
        Submit testers' feedback on a fix, list it, and sum it up.

        Feedback is one tester's structured report on the fix's current revision: the verdict, whether the task could be done, the worst remaining problem, and what the screen reader said. For each tester, their latest feedback on the revision counts.

        Usage: vouch feedback <command> [<arguments>]

        Commands:
          submit: Record a tester's feedback on the fix's current revision.
          list: List a fix's feedback, oldest first.
          summary: Sum up a fix's feedback on its current revision: verdicts, technologies, platforms and blocking reports.

        Global options: --server, --token, --json; see 'vouch --help'.
        See 'vouch help feedback <command>' for the help of a command.

        """

    @Test(arguments: [(["enroll", "--help"], enrollHelp), (["help", "enroll"], enrollHelp), (["feedback", "-h"], feedbackHelp), (["feedback"], feedbackHelp)])
    func groupAndCommandHelp(_ arguments: [String], _ expected: String) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: expected, stderr: ""))
    }

    /// Every required feedback field is marked as asked for on a terminal.
    @Test func feedbackSubmitHelpSaysWhatIsAsked() throws {
        let help = try VouchRun.run(["feedback", "submit", "--help"]).stdout
        for option in ["--tester <id>", "--verdict <verdict>", "--task-outcome <outcome>", "--severity <severity>", "--platform <platform>",
                       "--os-version <version>", "--app-build <build>", "--assistive-tech <technology>"] {
            let line = help.split(separator: "\n").first { $0.hasPrefix("  \(option):") }
            #expect(line?.hasSuffix(" Required; on a terminal, asked for when missing.") == true, "\(option)")
        }
        #expect(help.contains("\nUsage: \(FeedbackCommandsTests.submitUsage)\n"))
    }

    @Test(arguments: [["--help"], ["-h"], ["help"], []])
    func rootHelp(_ arguments: [String]) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: HelpGoldenTests.rootHelp, stderr: ""))
    }

    @Test(arguments: [["fix", "--help"], ["help", "fix"], ["fix"], ["--json", "fix", "-h"]])
    func fixHelp(_ arguments: [String]) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: HelpGoldenTests.fixHelp, stderr: ""))
    }

    /// Help wins over missing required options, wherever `--help` stands.
    @Test(arguments: [["fix", "create", "--help"], ["help", "fix", "create"], ["fix", "create", "k", "--title", "x", "-h"], ["-h", "fix", "create"]])
    func fixCreateHelp(_ arguments: [String]) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: HelpGoldenTests.fixCreateHelp, stderr: ""))
    }

    @Test(arguments: [["--version"], ["fix", "list", "--version"]])
    func version(_ arguments: [String]) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: "vouch 0.1.0\n", stderr: ""))
    }

    /// Commands of later releases must not appear as if they worked.
    @Test func helpLeavesOutLaterCommands() throws {
        var help = ""
        for path in [[], ["fix"], ["tester"], ["enroll"], ["feedback"], ["feedback", "submit"], ["token"]] {
            help += try VouchRun.run(path + ["--help"]).stdout
        }
        for word in ["status", "approve", "reject", "webhook", "promote", "retry-promotion"] {
            #expect(!help.contains("\n  \(word):"), "help lists \(word)")
            #expect(!help.contains("'\(word)'"), "help mentions \(word)")
        }
    }
}
