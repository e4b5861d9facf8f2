/// A node of the command tree: a group such as `fix` (with subcommands) or a command that runs (`fix create`).
struct Command {
    typealias Action = (CommandContext) throws -> Void

    var name: String
    /// One sentence: what the command does.
    var abstract: String
    /// Paragraphs shown in the command's help after the abstract.
    var discussion: String = ""
    /// A closing paragraph, shown after the options and commands.
    var epilogue: String = ""
    var arguments: [CommandArgument] = []
    var options: [CommandOption] = []
    var subcommands: [Command] = []
    /// Commands of the product that a later version brings (beyond docs/contracts.md, "CLI"); named in errors, never in help.
    var laterSubcommands: [String] = []
    /// For a command whose list form is a flag or its bare use (`enroll FIX --list`, `fix target KEY`): `list` before its one
    /// argument (`vouch enroll list FIX`) is read as that form, because `vouch fix list` and `vouch tester list` teach that shape.
    var listWord: ListWord?
    /// Nil for groups, which only hold subcommands.
    var action: Action?

    var isGroup: Bool { !subcommands.isEmpty }

    /// What `list` as the first word of a command's arguments stands for.
    enum ListWord {
        /// The flag that asks for the list, such as `--list`.
        case flag(String)
        /// The command lists when given nothing but its argument.
        case bare
    }

    func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }

    /// The command reached by following `path` from this one, or nil when a name is unknown.
    func descendant(at path: [String]) -> Command? {
        var command = self
        for name in path {
            guard let next = command.subcommand(named: name) else { return nil }
            command = next
        }
        return command
    }
}
