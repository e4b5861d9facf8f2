import VouchDomain
import VouchJSON

/// `vouch tester withdraw ID [--purge-feedback] [--yes]`: the tester's consent ends and their personal data is erased.
enum TesterWithdrawCommand {
    static func command() -> Command {
        Command(
            name: "withdraw", abstract: "Withdraw a tester: erase their personal data and end their enrollments and tokens.",
            discussion: """
                Erases the tester's name, contact, assistive technologies and targeting keys, ends their enrollments (the flags turn off for their keys), \
                revokes their tokens and removes the comments of their feedback. Their verdicts stay, unlinked from them, so past decisions remain explainable; \
                --purge-feedback deletes their feedback as well. This cannot be undone: on a terminal, vouch asks before it withdraws; without one, \
                it withdraws only with --yes.
                """,
            arguments: [TesterCommands.idArgument],
            options: [
                .flag("purge-feedback", help: "Delete the tester's feedback too, instead of keeping the verdicts unlinked."),
                .flag("yes", help: "Withdraw without asking; needed when there is no terminal to ask on."),
            ]
        ) { context in
            let id = context.invocation.argument("id")
            let purge = context.invocation.flag("purge-feedback")
            if !context.invocation.flag("yes") {
                // Nobody can be asked, and erasure cannot be undone: a script must say so itself.
                guard context.console.isInteractive else {
                    throw UsageError("Withdrawing tester \(id) erases their personal data and cannot be undone; add --yes to confirm without a terminal.",
                                     commandPath: context.invocation.path)
                }
                let erased = purge
                    ? "This erases their name, contact, assistive technologies and targeting keys, ends their enrollments, revokes their tokens and deletes their feedback."
                    : "This erases their name, contact, assistive technologies and targeting keys, ends their enrollments, revokes their tokens and removes their feedback's comments."
                context.console.prompt("Withdraw tester \(ShortID.say(id))? \(erased) Type yes to continue:")
                guard context.console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "yes" else {
                    throw Declined(message: "Not withdrawn.")
                }
            }
            let answer = try context.api.post(APIClient.path("/v1/testers", id, "/withdraw"), body: ["purge_feedback": .bool(purge)])
            context.output.emit(answer) { answer in
                [
                    "Tester \(ShortID.say(id)) has withdrawn: their name, contact, assistive technologies and targeting keys are erased, and their enrollments ended.",
                    "Feedback kept without comments, unlinked: \(OutputFormatter.number(answer, "feedback_unlinked"))",
                    "Feedback deleted: \(OutputFormatter.number(answer, "feedback_deleted"))",
                    "Tokens revoked: \(OutputFormatter.number(answer, "tokens_revoked"))",
                ]
            }
        }
    }
}
