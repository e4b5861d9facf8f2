import VouchConsoleKit
import VouchDomain
import VouchJSON

/// A new tester's fields as the page shows them, named as the API's JSON fields and kept exactly as typed.
///
/// Assistive technologies are up to three rows of technology, platform and version, each row's fields named as the
/// API reports them (`assistive_tech[1].platform`). Lists rather than radios, so an optional row can be emptied again.
struct TesterForm {
    struct Row {
        var name = ""
        var platform = ""
        var version = ""

        var isEmpty: Bool { name.isEmpty && platform.isEmpty && version.isEmpty }
    }

    static let rowCount = 3

    var name = ""
    var contact = ""
    var email = ""
    var rows = Array(repeating: Row(), count: rowCount)
    var targetingKeys = ""
    var consent = ""
    var consentGiven = false

    static let fields = FormFields([("name", "Name"), ("contact", "Contact"), ("email", "Email address")]
        + (0..<rowCount).flatMap { index in
            [("assistive_tech[\(index)].name", "Assistive technology \(index + 1)"),
             ("assistive_tech[\(index)].platform", "Platform of assistive technology \(index + 1)"),
             ("assistive_tech[\(index)].version", "Version of assistive technology \(index + 1)")]
        }
        + [("targeting_keys", "Targeting keys"), ("consent", "Consent text version"), ("consent_given", "Consent")])

    init() {}

    init(_ request: ConsoleRequest) {
        name = request.field("name")
        contact = request.field("contact")
        email = request.field("email")
        rows = (0..<TesterForm.rowCount).map { index in
            Row(name: request.field("assistive_tech[\(index)].name"), platform: request.field("assistive_tech[\(index)].platform"),
                version: request.field("assistive_tech[\(index)].version"))
        }
        targetingKeys = request.form["targeting_keys"] ?? ""
        consent = request.field("consent")
        consentGiven = request.form.values("consent_given").contains("yes")
    }

    /// The rows something was typed in, as the API numbers them, with their place on the form.
    private var sentRows: [(formIndex: Int, row: Row)] {
        rows.enumerated().filter { !$0.element.isEmpty }.map { ($0.offset, $0.element) }
    }

    /// The API's body. Without the consent box ticked, `consent` is left out, and the API refuses the tester.
    var json: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        if !contact.isEmpty { object["contact"] = .string(contact) }
        if !email.isEmpty { object["email"] = .string(email) }
        object["assistive_tech"] = .array(sentRows.map { _, row in
            var profile: JSONObject = ["name": .string(row.name), "platform": .string(row.platform)]
            if !row.version.isEmpty { profile["version"] = .string(row.version) }
            return .object(profile)
        })
        object["targeting_keys"] = .strings(FormFields.list(targetingKeys))
        if consentGiven { object["consent"] = .string(consent) }
        return .object(object)
    }

    /// The API's problems on this form's fields, with the consent box's own.
    func issues(from apiIssues: [FieldIssue]) -> [FieldIssue] {
        let sent = sentRows
        var issues: [FieldIssue] = []
        for issue in apiIssues {
            if issue.field == "assistive_tech" {
                issues.append(FieldIssue(field: "assistive_tech[0].name", message: "is required: choose at least one, with the platform it is used on"))
            } else if issue.field.hasPrefix("assistive_tech["), let close = issue.field.firstIndex(of: "]"),
                      let index = Int(issue.field.dropFirst("assistive_tech[".count).prefix(while: { $0 != "]" })), sent.indices.contains(index) {
                let part = String(issue.field[issue.field.index(after: close)...])
                let row = sent[index].row
                // An empty list choice gets words about the list, not the API's list of values.
                let unchosen = (part == ".name" && row.name.isEmpty) || (part == ".platform" && row.platform.isEmpty)
                issues.append(FieldIssue(field: "assistive_tech[\(sent[index].formIndex)]" + (part.isEmpty ? ".name" : part),
                                         message: unchosen ? "is required: choose one from the list, or empty the whole row" : issue.message))
            } else if issue.field.hasPrefix("consent"), !consentGiven {
                continue
            } else {
                issues.append(issue)
            }
        }
        if !consentGiven {
            if consent.isEmpty { issues.append(FieldIssue(field: "consent", message: "must not be empty")) }
            issues.append(FieldIssue(field: "consent_given", message: "must be confirmed: without the tester's explicit consent, Vouch cannot keep their details"))
        }
        return TesterForm.fields.issues(from: issues, values: ["targeting_keys": FormFields.list(targetingKeys)])
    }

    func render(issues: [FieldIssue]) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let technologies = AssistiveTechnology.allCases.map { technology in
            RadioGroup.Option(technology.rawValue, technology.displayName.prefix(1).uppercased() + technology.displayName.dropFirst())
        }
        let platforms = Platform.allCases.map { RadioGroup.Option($0.rawValue, Words.platform($0)) }
        let rowGroups = rows.enumerated().map { index, row -> HTML in
            let field = "assistive_tech[\(index)]"
            return """
            <fieldset class="field-row">
            <legend class="fieldset__legend">Assistive technology \(index + 1)\(index == 0 ? "" : " (optional)")</legend>
            \(Select(name: field + ".name", label: "Technology", options: technologies, placeholder: "Choose a technology", selected: row.name, issue: issue(field + ".name")).render())
            \(Select(name: field + ".platform", label: "Platform", options: platforms, placeholder: "Choose a platform", selected: row.platform, issue: issue(field + ".platform")).render())
            \(TextField(name: field + ".version", label: "Version (optional)", value: row.version, issue: issue(field + ".version"), autocomplete: "off", width: "input--short", spellcheck: false).render())
            </fieldset>
            """
        }
        return HTML.join([
            TextField(name: "name", label: "Name", hint: "The name the team knows the tester by. It is shown only to people who manage testers.",
                      value: name, issue: issue("name"), autocomplete: "off").render(),
            TextField(name: "contact", label: "Contact (optional)", hint: "How to reach the tester, such as an email address.",
                      value: contact, issue: issue("contact"), autocomplete: "off", spellcheck: false).render(),
            TextField(name: "email", label: "Email address (optional)",
                      hint: "Where Vouch sends the tester mail about the fixes she tests, such as ana@example.org. She can switch each kind off.",
                      value: email, issue: issue("email"), type: "email", autocomplete: "off", spellcheck: false).render(),
            "<h2 class=\"heading-m\">Assistive technology</h2>",
            "<p class=\"body\">Which assistive technology the tester uses, on which platform. This is health data: only the tester and people who manage testers see it.</p>",
            HTML.join(rowGroups),
            TextArea(name: "targeting_keys", label: "Targeting keys", heading: .sectionHeading,
                     hint: "The tester's user ids in the app (the OpenFeature targetingKey), one per line or separated by commas, such as user-7.",
                     value: targetingKeys, issue: issue("targeting_keys"), rows: 3).render(),
            "<h2 class=\"heading-m\">Consent</h2>",
            TextField(name: "consent", label: "Consent text version", hint: "The version or date of the consent text the tester read and agreed to, such as 2026-11. It is recorded with the time and your name.",
                      value: consent, issue: issue("consent"), autocomplete: "off", width: "input--short", spellcheck: false).render(),
            CheckboxGroup(name: "consent_given", legend: "The tester's consent",
                          hint: "Vouch may keep which assistive technology someone uses only with their explicit consent. They can withdraw at any time, which erases their personal data.",
                          options: [RadioGroup.Option("yes", "The tester has given explicit consent to Vouch storing which assistive technology they use (health data)")],
                          selected: consentGiven ? ["yes"] : [], issue: issue("consent_given")).render(),
        ])
    }
}
