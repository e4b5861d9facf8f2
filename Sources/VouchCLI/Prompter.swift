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

    /// "Verdict? 1 passed, 2 failed, 3 cant_tell:", answered by number or by name.
    func choose(_ label: String, among choices: [String], check: (String) -> String? = { _ in nil }) throws(CommandFailure) -> String {
        let numbered = choices.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: ", ")
        return try ask("\(label)? \(numbered):") { answer in
            guard let choice = Prompter.choice(answer, among: choices) else {
                let given = answer.isEmpty ? "An answer is needed." : "'\(answer)' is not one of the choices."
                return .refused("\(given) Answer with a number from 1 to \(choices.count), or with a name: \(choices.joined(separator: ", ")).")
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

    /// The choice an answer names: its number from 1, or its name typed in any case, with '-' or a space for '_'.
    static func choice(_ answer: String, among choices: [String]) -> String? {
        if let number = Int(answer), number >= 1, number <= choices.count { return choices[number - 1] }
        let name = answer.lowercased().replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
            .replacingOccurrences(of: "'", with: "")
        return choices.first { $0 == name }
    }
}
