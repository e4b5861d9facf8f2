import Foundation
import VouchConsoleKit

/// A form's fields in page order with the words each is called by, so the API's field problems can be shown on the
/// form: `wcag[2]` belongs to the `wcag` field, and "must not be empty" becomes "Title must not be empty", which makes
/// sense in the error summary, away from the field.
struct FormFields {
    /// Form field names (the API's JSON field names) and their labels, in the order the page shows them.
    let fields: [(name: String, label: String)]

    init(_ fields: [(name: String, label: String)]) { self.fields = fields }

    func label(of name: String) -> String? { fields.first { $0.name == name }?.label }

    /// The API's problems as the form's, one per field (a field with several problems lists them together), in page
    /// order. A problem with a list element names the element the person typed (`values`: the list fields as sent).
    /// On a page in another language than English, each field's message asks, in that language, to check the field,
    /// and the service's English follows, marked as English (docs/console.md, "Languages").
    func issues(from apiIssues: [FieldIssue], values: [String: [String]] = [:], messages: Messages = .english) -> [FieldIssue] {
        var sentences: [String: [String]] = [:]
        for issue in apiIssues {
            let (field, index) = formField(for: issue.field)
            var subject = label(of: field) ?? issue.field
            if let index, let list = values[field], list.indices.contains(index) { subject += " '\(list[index])'" }
            sentences[field, default: []].append(messages.language == .en ? FormFields.sentence(subject, Words.prose(issue.message))
                                                                        : Words.prose(issue.message))
        }
        return fields.compactMap { field in
            sentences[field.name].map { found in
                let joined = found.joined(separator: ". ")
                guard messages.language != .en else { return FieldIssue(field: field.name, message: joined) }
                return FieldIssue(field: field.name, message: messages(.fieldIssueCheck, ["subject": field.label]), detail: joined, detailLanguage: .en)
            }
        }
    }

    /// The form field an API field belongs to, and the list index it names: `platforms[1]` is element 1 of
    /// `platforms`. A field the form does not have goes to its first field, so the summary's link still leads somewhere.
    private func formField(for apiField: String) -> (name: String, index: Int?) {
        if label(of: apiField) != nil { return (apiField, nil) }
        if let open = apiField.firstIndex(of: "["), let close = apiField[open...].firstIndex(of: "]") {
            let base = String(apiField[..<open])
            if label(of: base) != nil { return (base, Int(apiField[apiField.index(after: open)..<close])) }
        }
        return (fields.first?.name ?? apiField, nil)
    }

    /// "Title" + "must not be empty" reads as one sentence; "Platforms" + "'tv' is not a platform" needs a colon.
    static func sentence(_ subject: String, _ message: String) -> String {
        let joins = ["must ", "is ", "may ", "cannot ", "has "].contains { message.hasPrefix($0) }
        return subject + (joins ? " " : ": ") + message
    }

    /// Values typed one per line or separated by commas, trimmed, without empty ones.
    static func list(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "," })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
