/// The short form of a generated id, for where a person only needs to recognise it: "ending 9todomw" for
/// `fb_d96c8cyh49todomw`, since a screen reader spells an id letter by letter, prefix and underscore included.
/// Where an id is to be typed or pasted (the answer to a create, lists and `show` whose ids commands take, the commands
/// the output suggests) it is printed whole (docs/contracts.md, "CLI", "Ids"). The command line and the console share it.
public enum ShortID {
    /// How many characters of the end are said: enough to tell a few dozen records apart at a glance.
    public static let length = 7

    /// "ending 9todomw"; a value that is not a generated id (a fix key, "withdrawn", a principal's name) is said whole.
    public static func say(_ id: String) -> String {
        isGenerated(id) ? "ending \(id.suffix(length))" : id
    }

    /// "tester ending hc30sjq" for a tester's pseudonym, which is how a tester token's principal appears; other names whole.
    public static func principal(_ name: String) -> String {
        name.hasPrefix("t_") && isGenerated(name) ? "tester " + say(name) : name
    }

    /// `t_7xerzhc30sjq`, `fb_…`, `dlv_…_…`: lowercase letters, '_', then at least ten letters, digits or '_'.
    public static func isGenerated(_ id: String) -> Bool {
        guard let separator = id.firstIndex(of: "_"), separator != id.startIndex else { return false }
        let prefix = id[..<separator]
        let body = id[id.index(after: separator)...]
        return prefix.allSatisfy { $0.isASCII && $0.isLowercase } && body.count >= 10
            && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
