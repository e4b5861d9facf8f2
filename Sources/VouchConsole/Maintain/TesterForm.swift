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

    static func fields(_ messages: Messages) -> FormFields {
        FormFields([("name", messages[.testerFormName]), ("contact", messages[.testerFormContact]), ("email", messages[.testerFormEmail])]
            + (0..<rowCount).flatMap { index in
                let number = ["number": messages.number(index + 1)]
                return [("assistive_tech[\(index)].name", messages(.testerFormTechnologyNumber, number)),
                        ("assistive_tech[\(index)].platform", messages(.testerFormPlatformOf, number)),
                        ("assistive_tech[\(index)].version", messages(.testerFormVersionOf, number))]
            }
            + [("targeting_keys", messages[.testerFormTargetingKeys]), ("consent", messages[.testerFormConsentVersion]),
               ("consent_given", messages[.testerFormConsentTitle])])
    }

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
    func issues(from apiIssues: [FieldIssue], _ messages: Messages = .english) -> [FieldIssue] {
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
        return TesterForm.fields(messages).issues(from: issues, values: ["targeting_keys": FormFields.list(targetingKeys)], messages: messages)
    }

    func render(issues: [FieldIssue], _ messages: Messages = .english) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let technologies = AssistiveTechnology.allCases.map { technology in
            RadioGroup.Option(technology.rawValue, messages.language == .en
                ? technology.displayName.prefix(1).uppercased() + technology.displayName.dropFirst() : messages.technology(technology))
        }
        let platforms = Platform.allCases.map { RadioGroup.Option($0.rawValue, Words.platform($0)) }
        let rowGroups = rows.enumerated().map { index, row -> HTML in
            let field = "assistive_tech[\(index)]"
            let legend = messages(index == 0 ? .testerFormTechnologyNumber : .testerFormTechnologyNumberOptional, ["number": messages.number(index + 1)])
            return """
            <fieldset class="field-row">
            <legend class="fieldset__legend">\(legend)</legend>
            \(Select(name: field + ".name", label: messages[.testerFormTechnology], options: technologies, placeholder: messages[.testerFormChooseTechnology],
                     selected: row.name, issue: issue(field + ".name")).render(messages))
            \(Select(name: field + ".platform", label: messages[.testerFormPlatform], options: platforms, placeholder: messages[.testerFormChoosePlatform],
                     selected: row.platform, issue: issue(field + ".platform")).render(messages))
            \(TextField(name: field + ".version", label: messages[.testerFormVersionOptional], value: row.version, issue: issue(field + ".version"),
                        autocomplete: "off", width: "input--short", spellcheck: false).render(messages))
            </fieldset>
            """
        }
        return HTML.join([
            TextField(name: "name", label: messages[.testerFormName], hint: messages[.testerFormNameHint],
                      value: name, issue: issue("name"), autocomplete: "off").render(messages),
            TextField(name: "contact", label: messages[.testerFormContactOptional], hint: messages[.testerFormContactHint],
                      value: contact, issue: issue("contact"), autocomplete: "off", spellcheck: false).render(messages),
            TextField(name: "email", label: messages[.testerFormEmailOptional], hint: messages[.testerFormEmailHint],
                      value: email, issue: issue("email"), type: "email", autocomplete: "off", spellcheck: false).render(messages),
            "<h2 class=\"heading-m\">\(messages[.testerFormTechnologyTitle])</h2>",
            "<p class=\"body\">\(messages[.testerFormTechnologyText])</p>",
            HTML.join(rowGroups),
            TextArea(name: "targeting_keys", label: messages[.testerFormTargetingKeys], heading: .sectionHeading, hint: messages[.testerFormTargetingKeysHint],
                     value: targetingKeys, issue: issue("targeting_keys"), rows: 3).render(messages),
            "<h2 class=\"heading-m\">\(messages[.testerFormConsentTitle])</h2>",
            TextField(name: "consent", label: messages[.testerFormConsentVersion], hint: messages[.testerFormConsentVersionHint],
                      value: consent, issue: issue("consent"), autocomplete: "off", width: "input--short", spellcheck: false).render(messages),
            CheckboxGroup(name: "consent_given", legend: messages[.testerFormConsentLegend], hint: messages[.testerFormConsentHint],
                          options: [RadioGroup.Option("yes", messages[.testerFormConsentGiven])],
                          selected: consentGiven ? ["yes"] : [], issue: issue("consent_given")).render(messages),
        ])
    }
}
