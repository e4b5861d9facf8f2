import VouchConsoleKit

/// How long a new personal link works, chosen from a few lengths (never pre-selected), with its problem if any.
struct LinkForm {
    var validFor = ""
    var issues: [FieldIssue] = []

    static let choices = [RadioGroup.Option("1d", "1 day"), RadioGroup.Option("7d", "7 days"), RadioGroup.Option("14d", "14 days"),
                          RadioGroup.Option("30d", "30 days")]

    var isChosen: Bool { LinkForm.choices.contains { $0.value == validFor } }

    func render() -> HTML {
        RadioGroup(name: "valid_for", legend: "How long should the link work?", hint: "It stops working after this, or sooner if you revoke it.",
                   options: LinkForm.choices, selected: validFor, issue: issues.first { $0.field == "valid_for" }, inline: true).render()
    }
}
