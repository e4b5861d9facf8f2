/// One positional argument of a command, such as a fix's `<key>`. A plain argument is required; an optional one
/// (after the required ones) may be left out; a repeating one (only the last) takes every remaining word, none or many,
/// and the command decides whether it needs any.
struct CommandArgument: Sendable {
    var name: String
    var help: String
    var repeats = false
    var isOptional = false
    /// What is wrong with a value, or nil when it is acceptable; checked before anything is sent.
    var problem: @Sendable (String) -> String? = { _ in nil }

    init(name: String, help: String, repeats: Bool = false, optional: Bool = false, problem: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.name = name
        self.help = help
        self.repeats = repeats
        isOptional = optional
        self.problem = problem
    }

    /// `<key>`, `[<id>]` for an optional argument, or `[<tester> ...]` for a repeating one, for usage lines.
    var synopsis: String { repeats ? "[<\(name)> ...]" : isOptional ? "[<\(name)>]" : "<\(name)>" }
}
