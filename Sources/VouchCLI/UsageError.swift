/// A mistake in how `vouch` was called; told on stderr with the command's usage, and exit 64.
struct UsageError: Error, Equatable {
    /// One sentence, without the `Error: ` prefix.
    var message: String
    /// The command whose usage is shown, as the words after `vouch` (`["fix", "create"]`).
    var commandPath: [String]

    init(_ message: String, commandPath: [String]) {
        self.message = message
        self.commandPath = commandPath
    }

    /// "Missing required option '--a <x>'." or "Missing required options '--a <x>', '--b <y>' and '--c <z>'."
    static func missingOptions(_ options: [CommandOption], commandPath: [String]) -> UsageError {
        let missing = options.map { "'\($0.valueSynopsis)'" }
        if missing.count == 1 { return UsageError("Missing required option \(missing[0]).", commandPath: commandPath) }
        let listed = missing.dropLast().joined(separator: ", ") + " and " + (missing.last ?? "")
        return UsageError("Missing required options \(listed).", commandPath: commandPath)
    }

    /// For an update given no field: "Give at least one field to change: --a, --b or --c."
    static func nothingToChange(_ optionNames: [String], commandPath: [String]) -> UsageError {
        let names = optionNames.map { "--" + $0 }
        return UsageError("Give at least one field to change: \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "").", commandPath: commandPath)
    }

    /// The three lines written to stderr.
    func lines(root: Command) -> [String] {
        let command = root.descendant(at: commandPath) ?? root
        let name = (["vouch"] + commandPath).joined(separator: " ")
        return ["Error: \(message)", "Usage: \(HelpFormatter.usage(for: command, path: commandPath))", "See '\(name) --help'."]
    }
}
