/// The whole `vouch` command tree, in the order of docs/contracts.md's nouns ("CLI").
enum CommandTree {
    static func root() -> Command {
        Command(
            name: "vouch",
            abstract: "vouch: stage accessibility fixes behind per-user flags, and have them verified by the people who rely on assistive technology.",
            epilogue: """
                Exit status: 0 success, 1 failure, 64 wrong command line, 65 input the server refused, 69 server unreachable, 77 no token or not allowed.
                """,
            subcommands: [FixCommands.group(), TesterCommands.group(), PanelCommands.group(), EnrollCommand.command(), FeedbackCommands.group(),
                          EvidenceCommands.group(), StatusCommand.command(), ApprovalCommands.approve(), ApprovalCommands.reject(), WebhookCommands.group(),
                          NotificationCommands.group(), TokenCommands.group(), FlagsCommands.group(),
                          AuditCommand.command(), EvalCommand.command()])
    }
}
