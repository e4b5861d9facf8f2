import VouchConsole
import VouchHTTP

/// The API's field problems as a form shows them: each on the form field of the same name, said as a sentence that
/// starts with the field's visible label ("URL is required: …"), because the API's messages continue its field's name.
struct AdminFormIssues {
    /// The form's visible labels, by API field name.
    let labels: [String: String]

    func issues(from answer: ConsoleAPI.Answer) -> [FieldIssue] { answer.issues.map(worded) }

    func worded(_ issue: FieldIssue) -> FieldIssue {
        // `events[2]` is one of the `events` checkboxes: the summary links to the group.
        let field = issue.field.split(separator: "[").first.map(String.init) ?? issue.field
        guard let label = labels[field] else { return FieldIssue(field: field, message: issue.message) }
        let continuesLabel = ["is ", "must ", "may ", "cannot ", "has "].contains { issue.message.hasPrefix($0) }
        return FieldIssue(field: field, message: label + (continuesLabel ? " " : ": ") + issue.message)
    }
}
