import VouchJSON

/// `vouch feedback submit|list|summary`: testers' structured reports on a fix, and what they add up to.
enum FeedbackCommands {
    static let fixArgument = CommandArgument(name: "fix", help: "The fix's flag key, such as tv-channel-selector-labels.", problem: FixCommands.keyProblem)

    static func group() -> Command {
        Command(
            name: "feedback", abstract: "Submit testers' feedback on a fix, list it, and sum it up.",
            discussion: """
                Feedback is one tester's structured report on the fix's current revision: the verdict, whether the task could be done, \
                the worst remaining problem, and what the screen reader said. For each tester, their latest feedback on the revision counts.
                """,
            subcommands: [FeedbackSubmitCommand.command(), list(), summary()])
    }

    static func list() -> Command {
        Command(
            name: "list", abstract: "List a fix's feedback, oldest first.",
            arguments: [fixArgument],
            options: [
                .single("tester", "id", help: "Only this tester's feedback."),
                .single("revision", "n", help: "Only feedback on this revision of the fix.", range: 1...Int(Int32.max)),
            ] + ListPager.options("feedback records")
        ) { context in
            let invocation = context.invocation
            let pager = ListPager(api: context.api, path: APIClient.path("/v1/fixes", invocation.argument("fix"), "/feedback"), itemsKey: "feedback")
            let page = try pager.fetch(query: [("tester", invocation.value("tester")), ("revision", invocation.value("revision"))], invocation: invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.feedbackLine, "feedback record", "feedback records") }
        }
    }

    static func summary() -> Command {
        Command(
            name: "summary", abstract: "Sum up a fix's feedback on its current revision: verdicts, technologies, platforms and blocking reports.",
            arguments: [fixArgument]
        ) { context in
            let summary = try context.api.get(APIClient.path("/v1/fixes", context.invocation.argument("fix"), "/feedback/summary"))
            context.output.emit(summary, OutputFormatter.feedbackSummary)
        }
    }
}
