import VouchDomain
import VouchJSON

/// Writes a command's answer: the server's JSON, pretty-printed, with `--json`; otherwise plain lines
/// for people who may be listening through a screen reader (label before value, no columns, no colour).
struct OutputFormatter {
    let console: Console
    let json: Bool

    /// Prints `value` as JSON, or the lines `describe` makes of it.
    func emit(_ value: JSONValue, _ describe: (JSONValue) -> [String]) {
        if json {
            console.output(JSONWriter.string(value, pretty: true))
        } else {
            for line in describe(value) { console.output(line) }
        }
    }

    /// "No fixes.", "1 fix." or "2 fixes."
    static func count(_ count: Int, _ singular: String, _ plural: String) -> String {
        switch count {
        case 0: "No \(plural)."
        case 1: "1 \(singular)."
        default: "\(count) \(plural)."
        }
    }

    /// A page of a list: one line per item, the count, and the hint when there are more pages.
    static func listLines(_ page: (items: [JSONValue], next: String?), _ describe: (JSONValue) -> String, _ singular: String, _ plural: String) -> [String] {
        page.items.map(describe) + [count(page.items.count, singular, plural)] + more(page.next, plural)
    }

    /// The hint under a list that has more pages.
    static func more(_ nextCursor: String?, _ plural: String) -> [String] {
        guard let nextCursor else { return [] }
        return ["More: run again with --all to list all \(plural), or with --cursor \(nextCursor) for the next page."]
    }

    /// A string member, or `fallback` when it is missing or null.
    static func text(_ value: JSONValue, _ key: String, _ fallback: String = "unknown") -> String {
        value[key]?.stringValue ?? fallback
    }

    /// A member that holds an RFC 3339 time, in words ("4 December 2026 at 5:17 UTC"), or `fallback` when it is missing.
    static func time(_ value: JSONValue, _ key: String, _ fallback: String = "unknown") -> String {
        value[key]?.stringValue.map(SpokenTime.say) ?? fallback
    }

    /// A member that holds a generated id, in its short form ("ending 9todomw"), for where it only needs to be recognised.
    static func short(_ value: JSONValue, _ key: String) -> String {
        ShortID.say(text(value, key))
    }

    /// Testers' pseudonyms said in passing: "tester ending hc30sjq, tester ending 2k9vd0a".
    static func shortTesters(_ ids: [String]) -> String {
        ids.map { "tester " + ShortID.say($0) }.joined(separator: ", ")
    }

    /// A whole-number member as text.
    static func number(_ value: JSONValue, _ key: String) -> String {
        value[key]?.intValue.map(String.init) ?? "unknown"
    }

    /// A list of strings as "a, b", or `empty` when there are none.
    static func list(_ value: JSONValue?, empty: String = "none") -> String {
        let items = (value?.arrayValue ?? []).compactMap(\.stringValue)
        return items.isEmpty ? empty : items.joined(separator: ", ")
    }

    /// A member that holds one of the API's names, in the words people hear ("can't tell" for `cant_tell`).
    static func spoken(_ value: JSONValue, _ key: String, _ vocabulary: SpokenWords.Vocabulary) -> String {
        SpokenWords.say(value[key]?.stringValue, vocabulary)
    }

    /// A list of the API's names in words, "a, b", or `empty` when there are none.
    static func spokenList(_ value: JSONValue?, _ vocabulary: SpokenWords.Vocabulary, empty: String = "none") -> String {
        let items = (value?.arrayValue ?? []).compactMap(\.stringValue).map { SpokenWords.say($0, vocabulary) }
        return items.isEmpty ? empty : items.joined(separator: ", ")
    }
}
