import Foundation

/// Asks a person at a terminal, the way a screen-reader user hears it best: one question per line, choices
/// numbered, and after an answer that does not fit, one plain line saying what fits and the question again.
struct Prompter {
    /// What an answer is worth: the value, or the line to say before asking again.
    enum Answer<Value> {
        case accepted(Value)
        case refused(String)
    }

    let console: Console
    /// Said when the input ends (Ctrl-D) before an answer, such as "nothing was sent".
    let whenInputEnds: String

    /// Asks `question` until `read` accepts the answer.
    func ask<Value>(_ question: String, _ read: (String) -> Answer<Value>) throws(CommandFailure) -> Value {
        while true {
            console.prompt(question)
            guard let line = console.readLine() else {
                console.output("")
                throw CommandFailure(.failure, "The input ended before the question was answered; \(whenInputEnds).")
            }
            switch read(line.trimmingCharacters(in: .whitespaces)) {
            case .accepted(let value): return value
            case .refused(let explanation): console.output(explanation)
            }
        }
    }

    /// "Verdict? 1 passed, 2 failed, 3 can't tell:": choices offered in words, answered by number, by words or by the
    /// API's name. With groups, each group is said on a line of its own before the question, numbered on across them, so
    /// a long list comes in parts a listener can take in ("Screen readers: 1 NVDA, 2 JAWS").
    func choose(_ label: String, among offered: [Choice], groups: [(name: String, count: Int)] = [], alsoAccepted: [Choice] = [],
                check: (String) -> String? = { _ in nil }) throws(CommandFailure) -> String {
        let numbered = offered.enumerated().map { "\($0.offset + 1) \($0.element.words)" }
        var question = "\(label)? \(numbered.joined(separator: ", ")):"
        if !groups.isEmpty {
            var start = 0
            console.output("\(label):")
            for group in groups {
                console.output("\(group.name): " + numbered[start..<min(start + group.count, numbered.count)].joined(separator: ", "))
                start += group.count
            }
            question = "\(label)? A number from 1 to \(offered.count):"
        }
        return try ask(question) { answer in
            guard let choice = Prompter.choice(answer, among: offered, alsoAccepted: alsoAccepted) else {
                let given = answer.isEmpty ? "An answer is needed." : "'\(answer)' is not one of the choices."
                return .refused("\(given) Answer with a number from 1 to \(offered.count), or in words: \(offered.map(\.words).joined(separator: ", ")).")
            }
            if let problem = check(choice) { return .refused(problem) }
            return .accepted(choice)
        }
    }

    /// Free text; nil when an optional question is skipped with an empty answer.
    func text(_ question: String, limit: Int, required: Bool, check: (String) -> String? = { _ in nil }) throws(CommandFailure) -> String? {
        try ask(question) { (answer: String) -> Answer<String?> in
            if answer.isEmpty {
                return required ? .refused("An answer is needed: at most \(limit) characters.") : .accepted(nil)
            }
            if answer.count > limit { return .refused("That answer has \(answer.count) characters; give at most \(limit).") }
            if let problem = check(answer) { return .refused(problem) }
            return .accepted(answer)
        }
    }

    /// A yes-or-no question, asked until the answer is one of them.
    func confirm(_ question: String) throws(CommandFailure) -> Bool {
        try ask(question) { answer in
            switch answer.lowercased() {
            case "yes", "y": .accepted(true)
            case "no", "n": .accepted(false)
            default: .refused("Answer yes or no.")
            }
        }
    }

    /// One choice: the API's name that is sent, and the words that are said for it.
    struct Choice: Equatable {
        var value: String
        var words: String
    }

    /// The choice an answer names: its number from 1 among those offered, or its words or API name (of an offered choice
    /// or of one also accepted), typed in any case, with '-', '_' or a space between words and with or without apostrophes.
    static func choice(_ answer: String, among offered: [Choice], alsoAccepted: [Choice] = []) -> String? {
        if let number = Int(answer), number >= 1, number <= offered.count { return offered[number - 1].value }
        func normalized(_ text: String) -> String {
            text.lowercased().replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
                .replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "\u{2019}", with: "")
        }
        let name = normalized(answer)
        guard !name.isEmpty else { return nil }
        return (offered + alsoAccepted).first { normalized($0.value) == name || normalized($0.words) == name }?.value
    }
}
