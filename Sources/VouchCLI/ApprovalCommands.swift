import Foundation
import VouchDomain
import VouchJSON

/// `vouch approve FIX` and `vouch reject FIX --comment …`: a release manager's decision on the fix's current revision.
enum ApprovalCommands {
    static func approve() -> Command {
        Command(
            name: "approve", abstract: "Approve a fix's current revision for release, as a release manager who is not its author.",
            discussion: """
                The approval is bound to the revision and to the evidence it saw: new failing feedback or a new revision voids it, \
                and it expires after a time the server sets (7 days by default). When every other criterion is met, the server promotes the fix.

                Example: vouch approve tv-channel-selector-labels --comment "VoiceOver users confirm it"
                """,
            arguments: [FeedbackCommands.fixArgument],
            options: [.single("comment", "text", help: "Why, in a few words; at most 2,000 characters.")]
        ) { context in
            try decide("approve", context)
        }
    }

    static func reject() -> Command {
        Command(
            name: "reject", abstract: "Reject a fix's current revision, saying what must change; it cannot be promoted until a new revision.",
            discussion: "Example: vouch reject tv-channel-selector-labels --comment \"Focus order is still wrong after the channel list\"",
            arguments: [FeedbackCommands.fixArgument],
            options: [.single("comment", "text", help: "What must change before the fix can be released; at most 2,000 characters.", required: true)]
        ) { context in
            try decide("reject", context)
        }
    }

    private static func decide(_ decision: String, _ context: CommandContext) throws {
        let invocation = context.invocation
        let fix = invocation.argument("fix")
        var body: JSONObject = ["decision": .string(decision)]
        if let comment = invocation.value("comment") {
            if decision == "reject" && comment.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw UsageError("A rejection needs a comment that says what must change: give '--comment <text>'.", commandPath: invocation.path)
            }
            body["comment"] = .string(comment)
        }
        let approval = try context.api.post(APIClient.path("/v1/fixes", fix, "/approvals"), body: body)
        context.output.emit(approval) { approval in
            var lines = ["Fix \(fix), revision \(OutputFormatter.number(approval, "revision")): \(OutputFormatter.decisionWord(approval)) "
                         + "by \(ShortID.principal(OutputFormatter.text(approval, "principal"))), reference \(OutputFormatter.short(approval, "id"))."]
            lines.append("Standing: \(OutputFormatter.approvalStanding(approval, currentRevision: approval["revision"]?.intValue)).")
            if let comment = approval["comment"]?.stringValue { lines.append("Comment: \(comment)") }
            lines.append("See what the fix still needs with 'vouch status \(fix)'.")
            return lines
        }
    }
}
