import Testing

/// Usage errors: `Error:`, `Usage:` and `See …` on stderr, nothing on stdout, exit 64.
@Suite struct UsageErrorGoldenTests {
    static let fixCreateUsage = "Usage: vouch fix create <key> --title <text> --ui-area <name> --platform <platform> ... [--wcag <criterion> ...] [--expected-announcement <text>] [--description <text>]"

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

    @Test func laterCommandIsNamedAsUnavailable() throws {
        #expect(try VouchRun.run(["fix", "promote", "tv-channel-selector-labels"]) == UsageErrorGoldenTests.usageError(
            "Error: 'vouch fix promote' is not available in this version of vouch. Commands: create, list, show, update, start, revise, pause, resume, abandon, rollback, target.",
            "Usage: vouch fix <command> [<arguments>]",
            "See 'vouch fix --help'."))
    }

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
            "Usage: vouch token create --name <name> --role <role> [--tester <id>]",
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
