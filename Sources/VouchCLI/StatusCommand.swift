/// `vouch status FIX`: what stands between a fix and everyone, criterion by criterion.
enum StatusCommand {
    static func command() -> Command {
        Command(
            name: "status", abstract: "Explain every promotion criterion of a fix, met or not, what is still missing, and its approvals.",
            discussion: """
                One line per criterion says whether it is met, in words and numbers, followed by its details, such as the testers \
                of each required assistive technology. While the fix is in testing, then come what is still missing, the release managers' \
                decisions with their standing, and, last, whether the fix is ready to promote; once everything is met, the server promotes \
                the fix by itself. In any other state, the decisions are followed by what became of the promotion, such as released to \
                everyone or failed, and what to do next.

                Example: vouch status tv-channel-selector-labels
                """,
            arguments: [FeedbackCommands.fixArgument]
        ) { context in
            let report = try context.api.get(APIClient.path("/v1/fixes", context.invocation.argument("fix"), "/status"))
            context.output.emit(report, OutputFormatter.status)
        }
    }
}
