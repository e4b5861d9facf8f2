import VouchConsoleKit

/// How long a new personal link works, chosen from a few lengths (never pre-selected), with its problem if any.
struct LinkForm {
    var validFor = ""
    var issues: [FieldIssue] = []

    /// The lengths offered, in days.
    static let days = [1, 7, 14, 30]

    static func choices(_ messages: Messages) -> [RadioGroup.Option] {
        days.map { RadioGroup.Option("\($0)d", $0 == 1 ? messages[.linkFormOneDay] : messages(.linkFormDays, ["count": messages.number($0)])) }
    }

    var isChosen: Bool { LinkForm.days.contains { "\($0)d" == validFor } }

    func render(_ messages: Messages = .english) -> HTML {
        RadioGroup(name: "valid_for", legend: messages[.linkFormLegend], hint: messages[.linkFormHint],
                   options: LinkForm.choices(messages), selected: validFor, issue: issues.first { $0.field == "valid_for" }, inline: true).render(messages)
    }
}
