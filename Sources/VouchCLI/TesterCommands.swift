import Foundation
import VouchJSON

/// `vouch tester add|list|show|update|withdraw|export|link|links|unlink`: the people who verify fixes, their consent, their
/// data, and their personal links to the web console.
enum TesterCommands {
    static let idArgument = CommandArgument(name: "id", help: "The tester's id, such as t_4w9tedpdf8fc, from 'vouch tester list'.", problem: idProblem)

    /// Tester ids are checked here because the server routes on the decoded path, where a '/' would reach another route.
    @Sendable static func idProblem(_ id: String) -> String? {
        !id.isEmpty && id.count <= 64 && id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            ? nil : "a tester id is letters, digits and '_', such as t_4w9tedpdf8fc"
    }

    static func group() -> Command {
        Command(
            name: "tester", abstract: "Add, list, show and change testers; withdraw them, export their data, and give them console links.",
            discussion: """
                A tester is a person who verifies fixes with the assistive technology they use. Which technology someone uses is health data: \
                a tester is added only with their consent, is known elsewhere only by a pseudonymous id (t_…), and can withdraw at any time, \
                which erases their personal data. A personal link ('link') signs a tester in to the web console without a token.
                """,
            subcommands: [add(), list(), show(), update(), TesterWithdrawCommand.command(), TesterExportCommand.command()] + TesterLinkCommands.all() + TesterInvitationCommands.all())
    }

    static func add() -> Command {
        Command(
            name: "add", abstract: "Add a tester, recording their consent.",
            discussion: "Example: vouch tester add --name \"Ana Example\" --contact ana@example.org --assistive-tech voiceover:ios:18.2 --targeting-key user-1 --consent 2026-11",
            options: TesterFields.options(required: true)
        ) { context in
            let tester = try context.api.post("/v1/testers", body: TesterFields.body(from: context.invocation))
            context.output.emit(tester) { tester in
                let id = OutputFormatter.text(tester, "id")
                return ["Tester \(id) is added, with consent version \(OutputFormatter.text(tester["consent"] ?? .null, "version")).",
                        "Next: enroll them in a fix with 'vouch enroll <fix> \(id)'."]
            }
        }
    }

    static func list() -> Command {
        Command(name: "list", abstract: "List testers, in order of their ids.", options: ListPager.options("testers")) { context in
            let page = try ListPager(api: context.api, path: "/v1/testers", itemsKey: "testers").fetch(query: [], invocation: context.invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.testerLine, "tester", "testers") }
        }
    }

    static func show() -> Command {
        Command(name: "show", abstract: "Show every field of one tester.", arguments: [idArgument]) { context in
            let tester = try context.api.get(APIClient.path("/v1/testers", context.invocation.argument("id")))
            context.output.emit(tester, OutputFormatter.testerDetails)
        }
    }

    static func update() -> Command {
        Command(
            name: "update", abstract: "Change a tester's name, contact, assistive technologies, targeting keys or consent.",
            discussion: "Only the options given change. The enrolled fixes' flags follow the new targeting keys at once.",
            arguments: [idArgument], options: TesterFields.options(required: false)
        ) { context in
            let body = TesterFields.body(from: context.invocation)
            guard !body.members.isEmpty else { throw UsageError.nothingToChange(TesterFields.optionNames, commandPath: context.invocation.path) }
            let tester = try context.api.patch(APIClient.path("/v1/testers", context.invocation.argument("id")), body: body)
            context.output.emit(tester) { ["Tester \(OutputFormatter.short($0, "id")) is updated."] }
        }
    }
}
