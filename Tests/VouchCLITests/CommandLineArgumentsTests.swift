import Testing
@testable import VouchCLI

/// The parser in-process: where options may stand, both value forms, lists, and what is refused.
@Suite struct CommandLineArgumentsTests {
    let parser = CommandLineArguments(root: CommandTree.root(), globalOptions: GlobalOptions.options)

    func invocation(_ arguments: [String]) throws -> Invocation {
        guard case .run(let invocation) = try parser.parse(arguments) else {
            Issue.record("expected a command to run for \(arguments)")
            throw UsageError("no command", commandPath: [])
        }
        return invocation
    }

    @Test func globalOptionsBeforeOrAfterTheCommand() throws {
        let before = try invocation(["--server", "http://h:1", "--json", "fix", "show", "k"])
        let after = try invocation(["fix", "show", "k", "--server=http://h:1", "--json"])
        for parsed in [before, after] {
            #expect(parsed.path == ["fix", "show"])
            #expect(parsed.argument("key") == "k")
            #expect(parsed.value("server") == "http://h:1")
            #expect(parsed.flag("json"))
        }
    }

    @Test func listsAreRepeatableAndCommaSeparated() throws {
        let parsed = try invocation(["fix", "create", "k", "--title=T", "--ui-area", "A", "--platform", "iOS,android", "--platform=web",
                                     "--wcag", "1.1.1, 4.1.2", "--expected", "NHK, button, selected"])
        #expect(parsed.list("platform") == ["ios", "android", "web"])
        #expect(parsed.list("wcag") == ["1.1.1", "4.1.2"])
        #expect(parsed.value("expected-announcement") == "NHK, button, selected")
        #expect(parsed.value("title") == "T")
    }

    @Test func enumeratedValuesAreNormalized() throws {
        #expect(try invocation(["token", "create", "--name", "Ana", "--role", "Release-Manager"]).value("role") == "release_manager")
        #expect(try invocation(["fix", "list", "--state", "rolled-back"]).value("state") == "rolled_back")
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try invocation(["fix", "show", "--", "k"]).argument("key") == "k")
        #expect(throws: UsageError.self) { try parser.parse(["fix", "show", "--", "--json"]) }
    }

    @Test func valueStartingWithDashNeedsTheEqualsForm() throws {
        #expect(try invocation(["fix", "revise", "k", "--note=-2 dB"]).value("note") == "-2 dB")
    }

    @Test(arguments: [
        (["fix", "show", "k", "extra"], "Unexpected argument 'extra'."),
        (["fix", "create", "k", "--title", "a", "--title", "b", "--ui-area", "x", "--platform", "ios"], "'--title' was given more than once; give it once."),
        (["fix", "list", "--json=yes"], "'--json' does not take a value."),
        (["fix", "show", "k", "--server"], "Missing value for '--server <url>'. A value that starts with '-' is given as '--server=<value>'."),
        (["--token", "t"], "Missing a command; choose one of: fix, tester, panel, enroll, feedback, evidence, status, approve, reject, webhook, notifications, token, flags, audit, eval."),
        (["fix", "create", "k", "--title", "t", "--ui-area", "a", "--platform", "ipad"], "Invalid value 'ipad' for '--platform <platform>'. Allowed: ios, android, web."),
        (["fix", "show", "a/b"], "Invalid value 'a/b' for '<key>': a fix key is 1 to 100 characters: lowercase letters, digits, '.', '_' or '-', starting with a letter or digit."),
        (["token", "revoke", ""], "Invalid value '' for '<id>': a token id is letters, digits and '_', such as tok_4w9tedpdf8fce6h6."),
        (["webhook", "deliveries", "we_a", "we_b"], "Unexpected argument 'we_b'."),
        (["webhook", "redeliver", "dlv_a/b"], "Invalid value 'dlv_a/b' for '<delivery>': an id is letters, digits and '_', such as dlv_4w9tedpdf8fce6h6."),
        (["fix", "rollout", "k", "--phased", "--steps", "5,101"], "Invalid value '101' for '--steps <percent>': give a whole number from 1 to 100."),
        (["webhook", "add", "https://h.example/x", "--events", "fix.promted"],
         "Invalid value 'fix.promted' for '--events <event>'. Did you mean 'fix.promoted'? Allowed: fix.created, fix.testing_started, fix.revised, "
            + "feedback.received, approval.recorded, fix.promoted, fix.released, fix.promotion_failed, fix.paused, fix.resumed, fix.rolled_back, fix.rollout_step."),
    ])
    func refused(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try parser.parse(arguments) }
        do {
            _ = try parser.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func repeatingArgumentTakesTheRest() throws {
        let parsed = try invocation(["enroll", "k", "t_a", "--remove", "t_b"])
        #expect(parsed.argument("fix") == "k")
        #expect(parsed.argumentList("tester") == ["t_a", "t_b"])
        #expect(parsed.flag("remove"))
        #expect(try invocation(["enroll", "k", "--list"]).argumentList("tester") == [])
    }

    /// `list` before the one argument of a command whose list form is a flag or its bare use reads as that form; with more
    /// words after it, "list" is the argument itself (a fix whose key is list).
    @Test func listAsTheFirstWord() throws {
        let enroll = try invocation(["enroll", "list", "tv-channel-selector-labels"])
        #expect(enroll.argument("fix") == "tv-channel-selector-labels" && enroll.flag("list") && enroll.argumentList("tester").isEmpty)
        let several = try invocation(["enroll", "list", "t_a", "t_b"])
        #expect(several.argument("fix") == "list" && !several.flag("list") && several.argumentList("tester") == ["t_a", "t_b"])
        let targets = try invocation(["fix", "target", "list", "tv-channel-selector-labels"])
        #expect(targets.argument("key") == "tv-channel-selector-labels" && targets.list("add") == nil)
        #expect(try invocation(["fix", "target", "list"]).argument("key") == "list")
    }

    @Test func optionalArgumentMayBeLeftOut() throws {
        #expect(try invocation(["webhook", "deliveries"]).optionalArgument("id") == nil)
        #expect(try invocation(["webhook", "deliveries", "we_a", "--status", "dead"]).argument("id") == "we_a")
    }

    /// A command the product names but this version lacks is told apart from a typo.
    @Test func laterCommandIsNamedAsUnavailable() {
        let root = Command(name: "vouch", abstract: "Root.", subcommands: [Command(name: "fix", abstract: "Fixes.", subcommands: [
            Command(name: "show", abstract: "Show.") { _ in },
        ], laterSubcommands: ["promote"])])
        let parser = CommandLineArguments(root: root, globalOptions: [])
        do {
            _ = try parser.parse(["fix", "promote", "k"])
            Issue.record("'fix promote' was accepted")
        } catch {
            #expect(error == UsageError("'vouch fix promote' is not available in this version of vouch. Commands: show.", commandPath: ["fix"]))
        }
    }

    /// Fields that can be asked for on a terminal are left to the command, not refused by the parser.
    @Test func askedOptionsAreNotRequiredByTheParser() throws {
        #expect(try invocation(["feedback", "submit", "k"]).values.isEmpty)
        #expect(try invocation(["feedback", "submit", "k", "--verdict", "Cant-Tell", "--name-announced", "N/A"]).value("verdict") == "cant_tell")
        #expect(try invocation(["feedback", "submit", "k", "--name-announced", "N/A"]).value("name-announced") == "n/a")
    }

    @Test func helpAndVersionAnywhere() throws {
        guard case .help(let path) = try parser.parse(["fix", "target", "--add", "-h"]) else { Issue.record("no help"); return }
        #expect(path == ["fix", "target"])
        guard case .version = try parser.parse(["token", "list", "--version"]) else { Issue.record("no version"); return }
    }
}
