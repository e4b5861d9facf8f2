/// A command line read against the command tree: which command to run and the values it was given.
struct Invocation {
    var command: Command
    /// The words after `vouch` that name the command (`["fix", "create"]`).
    var path: [String]
    /// Positional arguments by name; a repeating argument holds every word it took.
    var arguments: [String: [String]] = [:]
    /// Option values by option name (without dashes); list options hold every value, commas split.
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The value of a single-value option, or nil when it was not given.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a list option, or nil when it was not given (an empty list when given as "").
    func list(_ name: String) -> [String]? { values[name] }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A positional argument; the parser has already refused a command line that lacks it.
    func argument(_ name: String) -> String { arguments[name]?.first ?? "" }

    /// An optional positional argument, or nil when it was left out.
    func optionalArgument(_ name: String) -> String? { arguments[name]?.first }

    /// Every word a repeating argument took, in order; empty when there were none.
    func argumentList(_ name: String) -> [String] { arguments[name] ?? [] }

    /// The whole-number value of an option the parser has already range-checked.
    func integer(_ name: String) -> Int? { value(name).flatMap { Int($0) } }

    /// The command as typed, such as `vouch fix create`, for messages.
    var commandName: String { (["vouch"] + path).joined(separator: " ") }
}
