/// `feedback submit` on a terminal with required fields left out: asks for each, then for a comment, reads the
/// record back and asks before sending. Plain lines only: no colour, no cursor movement, nothing that repaints.
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
        if entry.values["comment"] == nil {
            let comment = FeedbackFields.comment
            entry.values["comment"] = try prompter.text(comment.question, limit: comment.limit, required: false)
        }
        prompter.console.output("Feedback to send:")
        for line in entry.readBack(fix: fix) { prompter.console.output(line) }
        guard try prompter.confirm("Send this feedback? (yes/no):") else { throw Declined(message: "Not sent.") }
    }

    private func answer(_ field: FeedbackFields.Field, _ entry: FeedbackEntry) throws(CommandFailure) -> String {
        if field.choices.isEmpty {
            let isTester = field.name == "tester"
            let text = try prompter.text(field.question, limit: field.limit, required: true) { (answer: String) -> String? in
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
}
