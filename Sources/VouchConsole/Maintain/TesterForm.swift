import VouchConsoleKit
import VouchDomain
import VouchJSON

/// A tester's fields as the pages that add and edit one show them, named as the API's JSON fields and kept exactly as
/// typed.
///
/// Assistive technologies are rows of technology, platform and version (three for a new tester; an edited one's and
/// one more), each row's fields named as the API reports them (`assistive_tech[1].platform`). Lists rather than radios, so an optional row can be emptied again.
struct TesterForm {
    struct Row {
        var name = ""
        var platform = ""
        var version = ""
        /// Kept from the tester's profile, which the form does not ask for (web feedback names the browser).
        var browser = ""

        var isEmpty: Bool { name.isEmpty && platform.isEmpty && version.isEmpty }
    }

    static let rowCount = 3
    /// The most rows a sent form is read for, whatever it claims.
    static let maxRows = 20

    var name = ""
    var contact = ""
    var email = ""
    var rows = Array(repeating: Row(), count: rowCount)
    var targetingKeys = ""
    var consent = ""
    var consentGiven = false
    /// The consent version on record when editing: the box must be ticked only when the version changes.
    var recordedConsent: String?

    static func fields(_ messages: Messages, rows: Int = rowCount) -> FormFields {
        FormFields([("name", messages[.testerFormName]), ("contact", messages[.testerFormContact]), ("email", messages[.testerFormEmail])]
            + (0..<rows).flatMap { index in
                let number = ["number": messages.number(index + 1)]
                return [("assistive_tech[\(index)].name", messages(.testerFormTechnologyNumber, number)),
                        ("assistive_tech[\(index)].platform", messages(.testerFormPlatformOf, number)),
                        ("assistive_tech[\(index)].version", messages(.testerFormVersionOf, number))]
            }
            + [("targeting_keys", messages[.testerFormTargetingKeys]), ("consent", messages[.testerFormConsentVersion]),
               ("consent_given", messages[.testerFormConsentTitle])])
    }

    init() {}

    /// The tester as recorded, with one empty row to add a technology.
    init(_ tester: Tester) {
        name = tester.name ?? ""
        contact = tester.contact ?? ""
        email = tester.email ?? ""
        rows = tester.assistiveTech.map { Row(name: $0.technology.rawValue, platform: $0.platform.rawValue, version: $0.version ?? "",
                                              browser: $0.browser?.rawValue ?? "") }
        rows += Array(repeating: Row(), count: max(1, TesterForm.rowCount - rows.count))
        targetingKeys = tester.targetingKeys.joined(separator: "\n")
        consent = tester.consent.version
        recordedConsent = tester.consent.version
    }

    /// - Parameter recordedConsent: the tester's consent version, when the form edits a tester.
    init(_ request: ConsoleRequest, recordedConsent: String? = nil) {
        name = request.field("name")
        contact = request.field("contact")
        email = request.field("email")
        // An edited tester may have more rows than a new one: as many as the page sent.
        let sent = (0..<TesterForm.maxRows).last { request.form["assistive_tech[\($0)].name"] != nil }.map { $0 + 1 } ?? 0
        rows = (0..<max(TesterForm.rowCount, sent)).map { index in
            Row(name: request.field("assistive_tech[\(index)].name"), platform: request.field("assistive_tech[\(index)].platform"),
                version: request.field("assistive_tech[\(index)].version"), browser: request.field("assistive_tech[\(index)].browser"))
        }
        self.recordedConsent = recordedConsent
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
            if !row.browser.isEmpty { profile["browser"] = .string(row.browser) }
            return .object(profile)
        })
        object["targeting_keys"] = .strings(FormFields.list(targetingKeys))
        if consentGiven || (recordedConsent != nil && !consentChanged) { object["consent"] = .string(consent) }
        // An edit clears what was emptied; a new tester simply has none.
        if recordedConsent != nil {
            object["contact"] = contact.isEmpty ? .null : .string(contact)
            object["email"] = email.isEmpty ? .null : .string(email)
        }
        return .object(object)
    }

    /// Whether an edit changes the consent version, which needs the tester's consent to the new text.
    var consentChanged: Bool { recordedConsent.map { $0 != consent } ?? true }

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
            } else if issue.field.hasPrefix("consent"), !consentGiven, consentChanged {
                continue
            } else {
                issues.append(issue)
            }
        }
        if !consentGiven, consentChanged {
            if consent.isEmpty { issues.append(FieldIssue(field: "consent", message: "must not be empty")) }
            issues.append(FieldIssue(field: "consent_given", message: "must be confirmed: without the tester's explicit consent, Vouch cannot keep their details"))
        }
        return TesterForm.fields(messages, rows: rows.count).issues(from: issues, values: ["targeting_keys": FormFields.list(targetingKeys)], messages: messages)
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
            let browser: HTML = row.browser.isEmpty ? .empty : Form.hidden(field + ".browser", row.browser)
            return """
            <fieldset class="field-row">\(browser)
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
            TextField(name: "consent", label: messages[.testerFormConsentVersion],
                      hint: messages[recordedConsent == nil ? .testerFormConsentVersionHint : .testerEditConsentHint],
                      value: consent, issue: issue("consent"), autocomplete: "off", width: "input--short", spellcheck: false).render(messages),
            CheckboxGroup(name: "consent_given", legend: messages[.testerFormConsentLegend], hint: messages[.testerFormConsentHint],
                          options: [RadioGroup.Option("yes", messages[.testerFormConsentGiven])],
                          selected: consentGiven ? ["yes"] : [], issue: issue("consent_given")).render(messages),
        ])
    }
}
