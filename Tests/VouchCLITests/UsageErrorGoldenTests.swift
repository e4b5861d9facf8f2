import Foundation
import Testing

/// Usage errors: `Error:`, `Usage:` and `See …` on stderr, nothing on stdout, exit 64.
@Suite struct UsageErrorGoldenTests {
    static let fixCreateUsage = "Usage: vouch fix create <key> --title <text> --ui-area <name> --platform <platform> ... [--wcag <criterion> ...] [--expected-announcement <text>] [--description <text>] [--language <language>]"

    static func usageError(_ lines: String...) -> VouchRun {
        VouchRun(status: 64, stdout: "", stderr: lines.map { $0 + "\n" }.joined())
    }

    @Test func unknownCommandSuggestsTheClosest() throws {
        #expect(try VouchRun.run(["fxi", "list"]) == UsageErrorGoldenTests.usageError(
            "Error: Unknown command 'fxi'. Did you mean 'fix'?",
            "Usage: vouch [--server <url>] [--token <token>] [--json] <command> [<arguments>]",
            "See 'vouch --help'."))
    }

    @Test func unknownSubcommandSuggestsTheClosest() throws {
        #expect(try VouchRun.run(["fix", "lsit"]) == UsageErrorGoldenTests.usageError(
            "Error: Unknown command 'lsit'. Did you mean 'list'?",
            "Usage: vouch fix <command> [<arguments>]",
            "See 'vouch fix --help'."))
    }

    /// Mistakes in the promotion, approval and webhook commands are caught before anything is sent.
    @Test(arguments: [
        (["reject", "tv"], "Error: Missing required option '--comment <text>'.", "vouch reject <fix> --comment <text>"),
        (["reject", "tv", "--comment", " "], "Error: A rejection needs a comment that says what must change: give '--comment <text>'.",
         "vouch reject <fix> --comment <text>"),
        (["fix", "rollout", "tv"], "Error: Give --phased or --all-at-once.", UsageErrorGoldenTests.rolloutUsage),
        (["fix", "rollout", "tv", "--phased", "--all-at-once"], "Error: Give either --phased or --all-at-once, not both.", UsageErrorGoldenTests.rolloutUsage),
        (["fix", "rollout", "tv", "--all-at-once", "--interval", "1h"],
         "Error: --steps and --interval describe a phased rollout; use them with --phased, or leave them out.", UsageErrorGoldenTests.rolloutUsage),
        (["fix", "criteria", "tv", "--min-pass-ratio", "most"], "Error: Invalid value 'most' for '--min-pass-ratio <ratio>': give a number from 0 to 1, such as 0.8.",
         UsageErrorGoldenTests.criteriaUsage),
        (["fix", "criteria", "tv", "--reset", "--max-blocking", "1"], "Error: Give either --reset or criteria to set, not both.", UsageErrorGoldenTests.criteriaUsage),
        (["webhook", "update", "we_a"], "Error: Give at least one field to change: --url, --events, --required, --format, --token-file, --enable or --disable.", UsageErrorGoldenTests.webhookUpdateUsage),
        (["webhook", "update", "we_a", "--enable", "--disable"], "Error: Give either --enable or --disable, not both.", UsageErrorGoldenTests.webhookUpdateUsage),
    ])
    func promotionCommands(_ arguments: [String], _ error: String, _ usage: String) throws {
        // The command's words are the usage line's up to its first argument: "vouch fix rollout".
        let name = usage.prefix { $0 != "<" && $0 != "[" }.trimmingCharacters(in: .whitespaces)
        #expect(try VouchRun.run(arguments, environment: ["VOUCH_URL": ConnectionGoldenTests.deadServer, "VOUCH_TOKEN": "vch_unused"])
                == UsageErrorGoldenTests.usageError(error, "Usage: \(usage)", "See '\(name) --help'."))
    }

    static let rolloutUsage = "vouch fix rollout <key> [--phased] [--steps <percent> ...] [--interval <duration>] [--all-at-once]"
    static let criteriaUsage = "vouch fix criteria <key> [--min-testers-passed <n>] [--required-assistive-tech <platform:technology> ...] [--max-blocking <n>] "
        + "[--min-pass-ratio <ratio>] [--min-soak <duration>] [--approvals-required <n>] [--reset]"
    static let webhookUpdateUsage = "vouch webhook update <id> [--url <url>] [--events <event> ...] [--required <true-or-false>] [--format <format>] [--token-file <name>] [--enable] [--disable]"

    @Test func unknownOptionSuggestsTheClosest() throws {
        #expect(try VouchRun.run(["fix", "create", "tv-channel-selector-labels", "--titel", "Label the channel logos"]) == UsageErrorGoldenTests.usageError(
            "Error: Unknown option '--titel'. Did you mean '--title'?",
            UsageErrorGoldenTests.fixCreateUsage,
            "See 'vouch fix create --help'."))
    }

    @Test func missingRequiredOptionsAreAllNamed() throws {
        #expect(try VouchRun.run(["fix", "create", "tv-channel-selector-labels", "--title", "Label the channel logos"]) == UsageErrorGoldenTests.usageError(
            "Error: Missing required options '--ui-area <name>' and '--platform <platform>'.",
            UsageErrorGoldenTests.fixCreateUsage,
            "See 'vouch fix create --help'."))
    }

    @Test func missingArgument() throws {
        #expect(try VouchRun.run(["fix", "show"]) == UsageErrorGoldenTests.usageError(
            "Error: Missing expected argument '<key>'.",
            "Usage: vouch fix show <key>",
            "See 'vouch fix show --help'."))
    }

    @Test func invalidEnumeratedValueSuggestsTheClosest() throws {
        #expect(try VouchRun.run(["token", "create", "--name", "ios-app", "--role", "sdj"]) == UsageErrorGoldenTests.usageError(
            "Error: Invalid value 'sdj' for '--role <role>'. Did you mean 'sdk'? Allowed: admin, release_manager, maintainer, tester, sdk.",
            "Usage: vouch token create --name <name> --role <role> [--principal <name>] [--tester <id>] [--email <address>] [--no-event-streams] [--flag-definitions]",
            "See 'vouch token create --help'."))
    }

    @Test func invalidNumber() throws {
        #expect(try VouchRun.run(["fix", "list", "--limit=many"]) == UsageErrorGoldenTests.usageError(
            "Error: Invalid value 'many' for '--limit <n>': give a whole number from 1 to 500.",
            "Usage: vouch fix list [--state <state>] [--limit <n>] [--cursor <cursor>] [--all]",
            "See 'vouch fix list --help'."))
    }

    @Test func invalidServerAddress() throws {
        #expect(try VouchRun.run(["--server", "localhost:8750", "fix", "list"]) == UsageErrorGoldenTests.usageError(
            "Error: Invalid value 'localhost:8750' for '--server <url>': give an http:// or https:// URL, such as http://127.0.0.1:8750.",
            "Usage: vouch fix list [--state <state>] [--limit <n>] [--cursor <cursor>] [--all]",
            "See 'vouch fix list --help'."))
    }
}
