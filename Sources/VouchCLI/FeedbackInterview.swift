import VouchDomain

/// `feedback submit` on a terminal with required fields left out: asks for each, then what the web console also asks
/// (what was heard, whether anything else broke) and for a comment, reads the record back and asks before sending.
/// Plain lines only: no colour, no cursor movement, nothing that repaints. Choices are offered in words, numbered.
struct FeedbackInterview {
    let prompter: Prompter

    init(console: Console) {
        prompter = Prompter(console: console, whenInputEnds: "nothing was sent")
    }

    /// Fills in `entry`; throws `Declined` when the person does not want it sent.
    func complete(_ entry: inout FeedbackEntry, fix: String) throws {
        for field in entry.missing {
            entry.values[field.name] = try answer(field, entry)
        }
        if entry.values["platform"] == "web", entry.values["browser"] == nil {
            entry.values["browser"] = try answer(FeedbackFields.browser, entry)
        }
        if entry.values["heard"] == nil {
            entry.values["heard"] = try prompter.text(heardQuestion(entry), limit: FeedbackFields.heard.limit, required: false)
        }
        if entry.regression == nil {
            let choices = ["yes", "no"].map { Prompter.Choice(value: $0, words: $0) }
            entry.regression = try prompter.choose(FeedbackFields.regressionQuestion, among: choices) == "yes"
        }
        if entry.values["comment"] == nil {
            let comment = FeedbackFields.comment
            entry.values["comment"] = try prompter.text(comment.question, limit: comment.limit, required: false)
        }
        prompter.console.output("Feedback to send:")
        for line in entry.readBack(fix: fix) { prompter.console.output(line) }
        guard try prompter.confirm("Send this feedback? (yes/no):") else { throw Declined(message: "Not sent.") }
    }

    private func answer(_ field: FeedbackFields.Field, _ entry: FeedbackEntry) throws(CommandFailure) -> String {
        if field.name == "assistive_tech" { return try assistiveTechnology(entry) }
        if field.choices.isEmpty {
            let isTester = field.name == "tester"
            let text = try prompter.text(question(field, entry), limit: field.limit, required: true) { (answer: String) -> String? in
                guard isTester, let problem = TesterCommands.idProblem(answer) else { return nil }
                return "That is not a tester id: \(problem)."
            }
            return text ?? ""
        }
        return try prompter.choose(field.label, among: field.choices) { choice in
            // The server refuses a failed verdict with a small problem; say so now rather than after every question.
            guard field.name == "severity", entry.values["verdict"] == "failed", ["none", "minor"].contains(choice) else { return nil }
            return "A failed verdict needs severity moderate, serious or critical."
        }
    }

    /// The platform's technologies, in groups; the platform is asked before, so the list fits it.
    private func assistiveTechnology(_ entry: FeedbackEntry) throws(CommandFailure) -> String {
        let platform = entry.values["platform"].flatMap(Platform.init(rawValue:))
        let groups = AssistiveTechChoices.groups(for: platform)
        let offered = groups.flatMap(\.technologies)
        let label = "Assistive technology" + (platform.map { $0 == .web ? " on the web" : " on \(SpokenWords.say($0.rawValue, .platform))" } ?? "")
        return try prompter.choose(label, among: offered.map(AssistiveTechChoices.choice), groups: groups.map { ($0.name, $0.technologies.count) },
                                   alsoAccepted: AssistiveTechnology.allCases.filter { !offered.contains($0) }.map(AssistiveTechChoices.choice))
    }

    /// The OS version's question names the platform's system and asks for the number alone, so that "iOS" is not typed
    /// and then said twice; on the web the system is not known from the platform, so its name is asked with the number.
    private func question(_ field: FeedbackFields.Field, _ entry: FeedbackEntry) -> String {
        guard field.name == "os_version", let platform = entry.values["platform"] else { return field.question }
        switch platform {
        case "ios": return "iOS version, the number only, such as 18.2:"
        case "android": return "Android version, the number only, such as 15:"
        default: return "Operating system and its version, such as Windows 11:"
        }
    }

    /// "What did VoiceOver say, word for word?" when a screen reader was used, as the web console asks.
    private func heardQuestion(_ entry: FeedbackEntry) -> String {
        guard let name = entry.values["assistive_tech"], AssistiveTechChoices.screenReaders.contains(name) else { return FeedbackFields.heard.question }
        return "What did \(SpokenWords.say(name, .assistiveTech)) say, word for word? (optional, press Enter to skip):"
    }
}
