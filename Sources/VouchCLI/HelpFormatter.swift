/// Help pages and usage lines, written as plain lines a screen reader reads well: a label, a colon,
/// the text, with no columns padded by spaces; help pages are wrapped at 80 characters (`HelpFormatter+Wrapping`).
enum HelpFormatter {
    static func help(for path: [String], in root: Command) -> String {
        let command = root.descendant(at: path) ?? root
        var sections = [command.abstract]
        if !command.discussion.isEmpty { sections.append(command.discussion) }
        sections.append("Usage: " + usage(for: command, path: path))
        if !command.arguments.isEmpty {
            sections.append((["Arguments:"] + command.arguments.map { "  <\($0.name)>: \($0.help)" }).joined(separator: "\n"))
        }
        if !command.options.isEmpty {
            sections.append((["Options:"] + command.options.map(optionLine)).joined(separator: "\n"))
        }
        if command.isGroup {
            var lines = ["Commands:"] + command.subcommands.map { "  \($0.name): \($0.abstract)" }
            if path.isEmpty { lines.append("  help: Show the help of a command, such as 'vouch help fix create'.") }
            sections.append(lines.joined(separator: "\n"))
        }
        if path.isEmpty {
            let lines = ["Global options, accepted before or after the command:"] + GlobalOptions.options.map(optionLine)
                + ["  -h, --help: Show help.", "  --version: Show the version of vouch."]
            sections.append(lines.joined(separator: "\n"))
        }
        if !command.epilogue.isEmpty { sections.append(command.epilogue) }
        if path.isEmpty {
            sections.append("See 'vouch help <command>' for the help of a command.")
        } else {
            var footer = "Global options: --server, --token, --json; see 'vouch --help'."
            if command.isGroup { footer += "\nSee 'vouch help \(path.joined(separator: " ")) <command>' for the help of a command." }
            sections.append(footer)
        }
        return wrapped(sections.joined(separator: "\n\n"))
    }

    /// The `Usage:` line's text: required parts bare, optional ones in brackets, repeatable ones followed by `...`.
    static func usage(for command: Command, path: [String]) -> String {
        let name = (["vouch"] + path).joined(separator: " ")
        if command.isGroup {
            guard path.isEmpty else { return "\(name) <command> [<arguments>]" }
            let globals = GlobalOptions.options.map { "[\($0.synopsis)]" }.joined(separator: " ")
            return "vouch \(globals) <command> [<arguments>]"
        }
        var parts = [name] + command.arguments.map(\.synopsis)
        parts += command.options.filter(\.isRequired).map(\.synopsis)
        parts += command.options.filter { !$0.isRequired }.map { "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }

    static func optionLine(_ option: CommandOption) -> String {
        var line = "  \(option.valueSynopsis)"
        if !option.aliases.isEmpty {
            line += " (also " + option.aliases.map { "--" + $0 }.joined(separator: ", ") + ")"
        }
        line += ": " + option.help
        if !option.allowedValues.isEmpty { line += " Allowed: \(option.allowedValues.joined(separator: ", "))." }
        if option.kind == .list { line += " Repeat it, or separate values with commas." }
        if option.isAskedWhenMissing {
            line += " Required; on a terminal, asked for when missing."
        } else if option.isRequired {
            line += " Required."
        }
        return line
    }
}
