import Testing
@testable import VouchCLI

/// `--help`, `help <command>` and `--version` print to stdout and exit 0, byte for byte as below.
@Suite struct HelpGoldenTests {
    static let rootHelp = """
        vouch: stage accessibility fixes behind per-user flags, and have them verified
        by the people who rely on assistive technology.

        Usage: vouch [--server <url>] [--token <token>] [--json] <command> [<arguments>]

        Commands:
          fix: Create, list, show and change accessibility fixes.
          tester: Add, list, show and change testers; withdraw them, export their data,
            and give them console links.
          panel: Make named groups of testers, such as 'VoiceOver on iOS', and change
            who is in them.
          enroll: Enroll testers in a fix, remove them, or list who is enrolled.
          feedback: Submit testers' feedback on a fix, list it, and sum it up.
          evidence: Export what testers verified, in the formats auditors and buyers
            read.
          status: Explain every promotion criterion of a fix, met or not, what is still
            missing, and its approvals.
          approve: Approve a fix's current revision for release, as a release manager
            who is not its author.
          reject: Reject a fix's current revision, saying what must change; it cannot be
            promoted until a new revision.
          webhook: Add, list, change and test the webhooks that receive Vouch's events,
            and follow their deliveries.
          notifications: List the notifications by email: to whom, about what, and
            whether they were sent.
          token: Create, list and revoke API tokens.
          flags: Export every fix's flag rules for another flag system.
          audit: List the audit events: who changed what, and when, oldest first.
          eval: Evaluate a fix's flag for one user, as an app would.
          help: Show the help of a command, such as 'vouch help fix create'.

        Global options, accepted before or after the command:
          --server <url>: The Vouch server's address. Default: the VOUCH_URL environment
            variable, or http://127.0.0.1:8750.
          --token <token>: The API token to send. Default: the VOUCH_TOKEN environment
            variable.
          --json: Print the server's JSON answer instead of plain lines.
          -h, --help: Show help.
          --version: Show the version of vouch.

        Exit status: 0 success, 1 failure, 64 wrong command line, 65 input the server
        refused, 69 server unreachable, 77 no token or not allowed.

        See 'vouch help <command>' for the help of a command.

        """

    static let fixHelp = """
        Create, list, show and change accessibility fixes.

        A fix is one accessibility change in an app, staged behind a feature flag named
        by its key. It starts as a draft, off for everyone. 'start' begins testing: the
        flag turns on for the keys the fix targets. 'pause' turns it off for everyone
        until 'resume'. Once the testers' evidence meets the fix's criteria ('criteria')
        and a release manager approves it, the fix is promoted, by the server or with
        'promote', and released to everyone as its rollout plan says ('rollout').

        Usage: vouch fix <command> [<arguments>]

        Commands:
          create: Create a fix, as a draft.
          list: List fixes, in order of their keys.
          show: Show every field of one fix.
          update: Change a fix's title, UI area, platforms, WCAG criteria, expected
            announcement, description or language.
          start: Start testing a fix: its flag turns on for the keys it targets and
            stays off for everyone else.
          revise: Record a new revision of a fix after its implementation changed, such
            as a new build.
          pause: Pause a fix: its flag turns off for everyone, at once.
          resume: Resume a paused fix, in the state it was paused from.
          abandon: Abandon a fix for good: its flag stays off for everyone.
          rollback: Roll back a released fix: its flag turns off for everyone.
          promote: Promote a fix whose criteria are met: Vouch calls the webhooks, and
            the fix is released once every required endpoint succeeds.
          retry-promotion: Promote a fix again after its promotion failed, once the
            webhook receivers are fixed.
          target: List, add or remove the targeting keys a fix is on for directly, such
            as a tester's user id or a QA device.
          criteria: Show or set a fix's own promotion criteria, in place of the server's
            defaults.
          rollout: Choose how a fix reaches everyone once promoted: in phases, a
            percentage of users at a time, or all at once.

        Global options: --server, --token, --json; see 'vouch --help'.
        See 'vouch help fix <command>' for the help of a command.

        """

    static let fixCreateHelp = """
        Create a fix, as a draft.

        Example: vouch fix create tv-channel-selector-labels \\
            --title "Label the channel logos" --ui-area "TV channel selector" \\
            --platform ios --wcag 1.1.1,4.1.2 --expected "NHK, button, selected"

        Usage: vouch fix create <key> --title <text> --ui-area <name>
               --platform <platform> ... [--wcag <criterion> ...]
               [--expected-announcement <text>] [--description <text>]
               [--language <language>]

        Arguments:
          <key>: The new fix's flag key: 1 to 100 lowercase letters, digits, '.', '_' or
            '-', starting with a letter or digit.

        Options:
          --title <text>: A short name for the fix, such as "Label the channel logos".
            Required.
          --ui-area <name>: The human name of the UI area the fix touches, such as "TV
            channel selector". Required.
          --platform <platform>: A platform the fix ships on. Allowed: ios, android,
            web. Repeat it, or separate values with commas. Required.
          --wcag <criterion>: A WCAG 2.2 success criterion the fix addresses, by number,
            such as 1.1.1 or 4.1.2. Repeat it, or separate values with commas.
          --expected-announcement <text> (also --expected): What a screen reader should
            say once the fix works, such as "NHK, button, selected".
          --description <text>: What changed and how to try it, for the people who test
            it.
          --language <language>: The language the title, UI area and expected
            announcement are written in. Default on creation: the server's
            console.default_language. Allowed: en, ja.

        Global options: --server, --token, --json; see 'vouch --help'.

        """

    static let enrollHelp = """
        Enroll testers in a fix, remove them, or list who is enrolled.

        While the fix is in testing, its flag is on for the targeting keys of every
        enrolled tester. --panel enrolls the testers in a panel who have not withdrawn,
        as the panel is now ('vouch panel'). 'vouch enroll list <fix>' lists who is
        enrolled, as --list does.

        Example: vouch enroll tv-channel-selector-labels t_4w9tedpdf8fc

        Example: vouch enroll tv-channel-selector-labels --panel p_4w9tedpdf8fc

        Example: vouch enroll list tv-channel-selector-labels

        Usage: vouch enroll <fix> [<tester> ...] [--panel <panel> ...] [--remove]
               [--list]

        Arguments:
          <fix>: The fix's flag key, such as tv-channel-selector-labels.
          <tester>: A tester's id, such as t_4w9tedpdf8fc; give several to enroll or
            remove them all.

        Options:
          --panel <panel>: A panel whose testers to enroll, such as p_4w9tedpdf8fc; at
            most 50. Repeat it, or separate values with commas.
          --remove: Remove the testers given from the fix instead of enrolling them.
          --list: List the testers enrolled in the fix; 'vouch enroll list <fix>' does
            the same.

        Global options: --server, --token, --json; see 'vouch --help'.

        """

    static let feedbackHelp = """
        Submit testers' feedback on a fix, list it, and sum it up.

        Feedback is one tester's structured report on the fix's current revision: the
        verdict, whether the task could be done, the worst remaining problem, and what
        the screen reader said. For each tester, their latest feedback on the revision
        counts.

        Usage: vouch feedback <command> [<arguments>]

        Commands:
          submit: Record a tester's feedback on the fix's current revision.
          list: List a fix's feedback, oldest first.
          summary: Sum up a fix's feedback on its current revision: verdicts,
            technologies, platforms and blocking reports.

        Global options: --server, --token, --json; see 'vouch --help'.
        See 'vouch help feedback <command>' for the help of a command.

        """

    static let webhookHelp = """
        Add, list, change and test the webhooks that receive Vouch's events, and follow
        their deliveries.

        A webhook is an HTTP endpoint that receives Vouch's events as signed POST
        requests (Standard Webhooks). When a fix is promoted, it is released once every
        webhook marked required has answered with success (2xx). A failed delivery is
        retried on a schedule; one that runs out of retries is dead, and can be sent
        again with 'redeliver'. Only an admin manages webhooks. Two other formats reach
        what teams already run: github-dispatch starts a GitHub Actions workflow (a
        repository dispatch), slack posts a message in words to a channel; neither can
        be required.

        Usage: vouch webhook <command> [<arguments>]

        Commands:
          add: Add a webhook; its signing secret is shown once.
          list: List webhooks; never their secrets.
          show: Show every field of one webhook, but its secret.
          update: Change a webhook's URL, events or whether promotions wait for it;
            enable or disable it.
          delete: Delete a webhook and its deliveries: it receives no more events.
          test: Send a webhook.test event to one webhook, signed and retried like any
            other.
          deliveries: List deliveries, of one webhook or of all: each event sent to a
            webhook, its attempts and where it stands.
          redeliver: Send a dead or cancelled delivery again, the same event with the
            same id, with its retries anew.

        Global options: --server, --token, --json; see 'vouch --help'.
        See 'vouch help webhook <command>' for the help of a command.

        """

    static let statusHelp = """
        Explain every promotion criterion of a fix, met or not, what is still missing,
        and its approvals.

        One line per criterion says whether it is met, in words and numbers, followed by
        its details, such as the testers of each required assistive technology. While
        the fix is in testing, then come what is still missing, the release managers'
        decisions with their standing, and, last, whether the fix is ready to promote;
        once everything is met, the server promotes the fix by itself. In any other
        state, the decisions are followed by what became of the promotion, such as
        released to everyone or failed, and what to do next.

        Example: vouch status tv-channel-selector-labels

        Usage: vouch status <fix>

        Arguments:
          <fix>: The fix's flag key, such as tv-channel-selector-labels.

        Global options: --server, --token, --json; see 'vouch --help'.

        """

    static let testerLinkHelp = """
        Make a personal link that signs a tester in to the web console; it is shown
        once.

        Opening the link signs the tester in to the console, where they try the fixes
        they are enrolled in, give feedback, and see, export or withdraw their data;
        they need no token. Anyone who has the link can act as the tester until it
        expires or is revoked, so send it as you would send a password. Only a hash of
        it is kept: it cannot be shown again, and a lost link is revoked with 'unlink'
        and replaced by a new one.

        Example: vouch tester link t_4w9tedpdf8fc --valid-for 7d

        Usage: vouch tester link <id> [--valid-for <duration>]

        Arguments:
          <id>: The tester's id, such as t_4w9tedpdf8fc, from 'vouch tester list'.

        Options:
          --valid-for <duration>: How long the link works, from 1h to 90d, such as 14d.
            Default: the server's console.link_valid_for, 14 days unless configured
            otherwise.

        Global options: --server, --token, --json; see 'vouch --help'.

        """

    @Test(arguments: [(["webhook"], webhookHelp), (["help", "webhook"], webhookHelp), (["status", "-h"], statusHelp)])
    func promotionHelp(_ arguments: [String], _ expected: String) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: expected, stderr: ""))
    }

    @Test(arguments: [(["enroll", "--help"], enrollHelp), (["help", "enroll"], enrollHelp), (["feedback", "-h"], feedbackHelp), (["feedback"], feedbackHelp)])
    func groupAndCommandHelp(_ arguments: [String], _ expected: String) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: expected, stderr: ""))
    }

    /// The personal link's help says it is shown once, and what it lets its holder do.
    @Test(arguments: [["tester", "link", "--help"], ["help", "tester", "link"], ["tester", "link", "t_a", "--valid-for", "7d", "-h"]])
    func testerLinkHelp(_ arguments: [String]) throws {
        #expect(try VouchRun.run(arguments) == VouchRun(status: 0, stdout: HelpGoldenTests.testerLinkHelp, stderr: ""))
    }

    /// A help page with its wrapped lines joined again: an item's or a usage line's continuation (indented further) goes back
    /// onto the line it continues, so a test can look for a whole entry.
    static func unwrapped(_ help: String) -> String {
        var lines: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let last = lines.last, line.hasPrefix("    "), last.hasPrefix("  ") || last.hasPrefix("Usage: ") {
                lines[lines.count - 1] = last + " " + line.drop { $0 == " " }
            } else {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Every help page of the command tree, the root's included, fits in 80 characters a line, and a line broken to fit
    /// goes on indented, so it reads as the same entry.
    @Test func everyHelpLineFitsIn80Characters() throws {
        func paths(_ command: Command, _ path: [String]) -> [[String]] {
            [path] + command.subcommands.flatMap { paths($0, path + [$0.name]) }
        }
        let all = paths(CommandTree.root(), [])
        #expect(all.count > 40 && all.contains(["webhook", "redeliver"]), "the tree has every command")
        for path in all {
            let run = try VouchRun.run(path + ["--help"])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(path)")
            for line in run.stdout.split(separator: "\n") {
                #expect(line.count <= 80, "\(path): \(line.count) characters: \(line)")
            }
        }
        // The longest lines of all, wrapped: an item, a usage line and an example.
        let submit = try VouchRun.run(["feedback", "submit", "--help"]).stdout
        #expect(submit.contains("""
              --task-outcome <outcome>: Could the tester do the task, and how? Allowed:
                completed_independently, completed_with_workaround,
            """))
        #expect(submit.contains("""
            Usage: vouch feedback submit <fix> --tester <id> --verdict <verdict>
                   --task-outcome <outcome> --severity <severity> --platform <platform>
            """))
        #expect(submit.contains("""
            Example: vouch feedback submit tv-channel-selector-labels \\
                --tester t_4w9tedpdf8fc --verdict passed \\
            """))
    }

    /// Every required feedback field is marked as asked for on a terminal.
    @Test func feedbackSubmitHelpSaysWhatIsAsked() throws {
        let help = Self.unwrapped(try VouchRun.run(["feedback", "submit", "--help"]).stdout)
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

    /// Every command of the product has its help, and the reject help says the comment is required.
    @Test func everyPromotionCommandHasHelp() throws {
        for path in [["fix", "promote"], ["fix", "retry-promotion"], ["fix", "criteria"], ["fix", "rollout"], ["approve"], ["reject"],
                     ["webhook", "add"], ["webhook", "list"], ["webhook", "show"], ["webhook", "update"], ["webhook", "delete"], ["webhook", "test"],
                     ["webhook", "deliveries"], ["webhook", "redeliver"]] {
            let run = try VouchRun.run(path + ["--help"])
            #expect(run.status == 0 && run.stderr == "", "\(path)")
            #expect(run.stdout.contains("\nUsage: vouch \(path.joined(separator: " "))"), "\(path): \(run)")
        }
        #expect(Self.unwrapped(try VouchRun.run(["reject", "--help"]).stdout).contains("\n  --comment <text>: What must change before the fix can be released; at most 2,000 characters. Required.\n"))
        let criteria = try VouchRun.run(["help", "fix", "criteria"]).stdout
        #expect(criteria.contains("With no option, nothing changes."))
    }
}
