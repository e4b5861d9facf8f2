import VouchDomain
import VouchJSON

/// `vouch fix …`: create, list, show and update fixes; the lifecycle actions and targets live beside this file.
enum FixCommands {
    /// An existing fix's key. It is checked here because the server routes on the decoded path, where a '/' would
    /// reach another route; `fix create` leaves the check to the server, which reports it with the other fields.
    static let keyArgument = CommandArgument(name: "key", help: "The fix's flag key, such as tv-channel-selector-labels.", problem: keyProblem)

    @Sendable static func keyProblem(_ key: String) -> String? {
        FixKey.isValid(key) ? nil : "a fix key is \(FixKey.rule)"
    }

    static func group() -> Command {
        Command(
            name: "fix", abstract: "Create, list, show and change accessibility fixes.",
            discussion: """
                A fix is one accessibility change in an app, staged behind a feature flag named by its key. \
                It starts as a draft, off for everyone. 'start' begins testing: the flag turns on for the keys the fix targets. \
                'pause' turns it off for everyone until 'resume'. Once the testers' evidence meets the fix's criteria ('criteria') and a release manager \
                approves it, the fix is promoted, by the server or with 'promote', and released to everyone as its rollout plan says ('rollout').
                """,
            subcommands: [create(), list(), show(), update()] + FixLifecycleCommands.all() + FixPromotionCommands.all()
                + [FixTargetCommand.command(), FixCriteriaCommand.command(), FixRolloutCommand.command()])
    }

    static func create() -> Command {
        Command(
            name: "create", abstract: "Create a fix, as a draft.",
            discussion: "Example: vouch fix create tv-channel-selector-labels --title \"Label the channel logos\" --ui-area \"TV channel selector\" --platform ios --wcag 1.1.1,4.1.2 --expected \"NHK, button, selected\"",
            arguments: [CommandArgument(name: "key", help: "The new fix's flag key: 1 to 100 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit.")],
            options: FixFields.options(required: true)
        ) { context in
            var body: JSONObject = ["key": .string(context.invocation.argument("key"))]
            body.merge(FixFields.body(from: context.invocation))
            let fix = try context.api.post("/v1/fixes", body: body)
            context.output.emit(fix) { fix in
                let key = OutputFormatter.text(fix, "key")
                return ["Fix \(key) is created: \(OutputFormatter.spoken(fix, "state", .fixState)), revision \(OutputFormatter.number(fix, "revision")).",
                        // The README's story: start, then the testers who will verify it; a QA device is the other way in.
                        "Next: start testing with 'vouch fix start \(key)', then add testers with 'vouch tester add' "
                            + "and enroll them with 'vouch enroll \(key) <tester>'.",
                        "To try it on a QA device instead, target the device's key with 'vouch fix target \(key) --add <key>'."]
            }
        }
    }

    static func list() -> Command {
        Command(
            name: "list", abstract: "List fixes, in order of their keys.",
            options: [.single("state", "state", help: "Only fixes in this state.", allowed: FixState.allCases.map(\.rawValue))] + ListPager.options("fixes")
        ) { context in
            let pager = ListPager(api: context.api, path: "/v1/fixes", itemsKey: "fixes")
            let page = try pager.fetch(query: [("state", context.invocation.value("state"))], invocation: context.invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.fixLine, "fix", "fixes") }
        }
    }

    static func show() -> Command {
        Command(name: "show", abstract: "Show every field of one fix.", arguments: [keyArgument]) { context in
            let fix = try context.api.get(APIClient.path("/v1/fixes", context.invocation.argument("key")))
            context.output.emit(fix, OutputFormatter.fixDetails)
        }
    }

    static func update() -> Command {
        Command(
            name: "update", abstract: "Change a fix's title, UI area, platforms, WCAG criteria, expected announcement, description or language.",
            discussion: "Only the options given change. An empty value, such as --description \"\", clears an optional field; --wcag \"\" removes every criterion.",
            arguments: [keyArgument], options: FixFields.options(required: false)
        ) { context in
            let body = FixFields.body(from: context.invocation)
            guard !body.members.isEmpty else { throw UsageError.nothingToChange(FixFields.optionNames, commandPath: context.invocation.path) }
            let fix = try context.api.patch(APIClient.path("/v1/fixes", context.invocation.argument("key")), body: body)
            context.output.emit(fix) { fix in
                ["Fix \(OutputFormatter.text(fix, "key")) is updated: \(OutputFormatter.spoken(fix, "state", .fixState)), revision \(OutputFormatter.number(fix, "revision"))."]
            }
        }
    }
}
