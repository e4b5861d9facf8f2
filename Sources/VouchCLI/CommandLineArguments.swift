import Foundation

/// Reads `vouch`'s arguments against the command tree, the way swift-argument-parser does:
/// command words first, options as `--name value` or `--name=value` anywhere after the word that
/// introduces them, global options anywhere, `--` to end options, `-h`/`--help` and `--version` at any point.
struct CommandLineArguments {
    enum Outcome {
        /// Show the help of the command at this path.
        case help([String])
        case version
        case run(Invocation)
    }

    let root: Command
    let globalOptions: [CommandOption]

    func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        // Help and version win wherever they stand before `--`, even after an option that lacks its value.
        let options = arguments.prefix { $0 != "--" }
        if options.contains("-h") || options.contains("--help") {
            return .help(CommandLineArguments.deepestPath(from: root, words: options))
        }
        if options.contains("--version") { return .version }
        var command = root
        var invocation = Invocation(command: root, path: [])
        var positionals: [String] = []
        var optionsEnded = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded && argument == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded && CommandLineArguments.looksLikeOption(argument) {
                try readOption(argument, from: arguments, at: &index, available: command.options + globalOptions, into: &invocation)
                continue
            }
            if command.isGroup {
                if argument == "help" {
                    return .help(try helpPath(from: command, path: invocation.path, words: arguments[index...].filter { !CommandLineArguments.looksLikeOption($0) }))
                }
                guard let next = command.subcommand(named: argument) else {
                    throw unknownCommand(argument, in: command, path: invocation.path)
                }
                command = next
                invocation.path.append(argument)
                continue
            }
            positionals.append(argument)
        }
        invocation.command = command
        if command.isGroup {
            // Nothing but command words (`vouch`, `vouch fix`): show what there is to choose from.
            if arguments.count == invocation.path.count { return .help(invocation.path) }
            let names = command.subcommands.map(\.name).joined(separator: ", ")
            throw UsageError("Missing a command; choose one of: \(names).", commandPath: invocation.path)
        }
        // `vouch enroll list tv-key`: only with exactly one word after `list`, so a fix whose key is "list" still takes testers.
        if let listWord = command.listWord, positionals.count == 2, positionals[0] == "list" {
            positionals.removeFirst()
            if case .flag(let name) = listWord { invocation.flags.insert(name) }
        }
        try assign(positionals, to: &invocation)
        // Options a person can be asked for on a terminal are the command's to check.
        let missing = command.options.filter { $0.isRequired && !$0.isAskedWhenMissing && invocation.values[$0.name] == nil }
        if !missing.isEmpty { throw UsageError.missingOptions(missing, commandPath: invocation.path) }
        return .run(invocation)
    }

    /// For `vouch -h fix create`: the command words that follow, as far as they name commands.
    private static func deepestPath(from root: Command, words: ArraySlice<String>) -> [String] {
        var command = root
        var path: [String] = []
        for word in words {
            guard let next = command.subcommand(named: word) else { continue }
            command = next
            path.append(word)
        }
        return path
    }

    static func looksLikeOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument.count > 1
    }

    private func readOption(_ argument: String, from arguments: [String], at index: inout Int, available: [CommandOption],
                            into invocation: inout Invocation) throws(UsageError) {
        var spelled = argument
        var inlineValue: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            spelled = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        if inlineValue != nil, ["--help", "--version"].contains(spelled) {
            throw UsageError("'\(spelled)' does not take a value.", commandPath: invocation.path)
        }
        guard let option = available.first(where: { $0.spellings.contains(spelled) }) else {
            let suggestion = Suggestion.sentence(for: spelled, among: available.flatMap(\.spellings) + ["--help", "--version"])
            throw UsageError("Unknown option '\(spelled)'.\(suggestion)", commandPath: invocation.path)
        }
        if option.kind == .flag {
            if inlineValue != nil { throw UsageError("'\(spelled)' does not take a value.", commandPath: invocation.path) }
            invocation.flags.insert(option.name)
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            guard index < arguments.count, !CommandLineArguments.looksLikeOption(arguments[index]) else {
                throw UsageError("Missing value for '\(option.valueSynopsis)'. A value that starts with '-' is given as '\(spelled)=<value>'.",
                                 commandPath: invocation.path)
            }
            value = arguments[index]
            index += 1
        }
        switch option.kind {
        case .single:
            guard invocation.values[option.name] == nil else {
                throw UsageError("'\(option.spelledName)' was given more than once; give it once.", commandPath: invocation.path)
            }
            invocation.values[option.name] = [try option.accept(value, commandPath: invocation.path)]
        case .list, .flag:
            let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            var accepted: [String] = []
            for part in parts { accepted.append(try option.accept(part, commandPath: invocation.path)) }
            invocation.values[option.name, default: []] += accepted
        }
    }

    private func assign(_ positionals: [String], to invocation: inout Invocation) throws(UsageError) {
        let expected = invocation.command.arguments
        let required = expected.filter { !$0.repeats && !$0.isOptional }
        if positionals.count < required.count {
            throw UsageError("Missing expected argument '<\(required[positionals.count].name)>'.", commandPath: invocation.path)
        }
        if positionals.count > expected.count && expected.last?.repeats != true {
            throw UsageError("Unexpected argument '\(positionals[expected.count])'.", commandPath: invocation.path)
        }
        for (position, value) in positionals.enumerated() {
            let argument = expected[min(position, expected.count - 1)]
            if let problem = argument.problem(value) {
                throw UsageError("Invalid value '\(value)' for '<\(argument.name)>': \(problem).", commandPath: invocation.path)
            }
            invocation.arguments[argument.name, default: []].append(value)
        }
    }

    private func helpPath(from command: Command, path: [String], words: [String]) throws(UsageError) -> [String] {
        var command = command
        var path = path
        for word in words where !(path.isEmpty && word == "help") {
            guard command.isGroup else { throw UsageError("Unexpected argument '\(word)'.", commandPath: path) }
            guard let next = command.subcommand(named: word) else { throw unknownCommand(word, in: command, path: path) }
            command = next
            path.append(word)
        }
        return path
    }

    private func unknownCommand(_ word: String, in group: Command, path: [String]) -> UsageError {
        let names = group.subcommands.map(\.name)
        if group.laterSubcommands.contains(word) {
            let name = (["vouch"] + path + [word]).joined(separator: " ")
            return UsageError("'\(name)' is not available in this version of vouch. Commands: \(names.joined(separator: ", ")).", commandPath: path)
        }
        if let suggestion = Suggestion.closest(to: word, among: names) {
            return UsageError("Unknown command '\(word)'. Did you mean '\(suggestion)'?", commandPath: path)
        }
        return UsageError("Unknown command '\(word)'. Commands: \(names.joined(separator: ", ")).", commandPath: path)
    }
}
