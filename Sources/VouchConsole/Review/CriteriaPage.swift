import VouchCodec
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServices

/// A fix's own criteria (`/console/fixes/{key}/criteria`), set as the API's `PUT /v1/fixes/{key}/criteria` sets them:
/// each field empty keeps the configured default; the entries are read as the API reads its body, and the fix
/// service decides who may set them.
struct CriteriaPage {
    /// The form's fields, named as the API's, in page order.
    static let names = ["min_testers_passed", "required_assistive_tech", "max_blocking", "min_pass_ratio", "min_soak", "approvals_required"]

    let services: Services

    static func fields(_ messages: Messages) -> FormFields {
        FormFields(names.map { ($0, ReviewWords.criterion($0, messages)) })
    }

    func form(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try services.fixes.fix(request.parameter("key"), for: try request.signedIn)
        return render(request, fix: fix, values: CriteriaPage.values(of: fix.criteria), issues: [])
    }

    /// The fix's overrides as the form shows them; a criterion without one is empty.
    static func values(of overrides: CriteriaOverrides) -> [String: String] {
        var values: [String: String] = [:]
        values["min_testers_passed"] = overrides.minTestersPassed.map { String($0) }
        values["required_assistive_tech"] = overrides.requiredAssistiveTech?.map(\.text).joined(separator: ", ")
        values["max_blocking"] = overrides.maxBlocking.map { String($0) }
        values["min_pass_ratio"] = overrides.minPassRatio.map { String($0) }
        values["min_soak"] = overrides.minSoakSeconds.map(DurationText.string)
        values["approvals_required"] = overrides.approvalsRequired.map { String($0) }
        return values
    }

    func submit(_ request: ConsoleRequest) throws -> HTTPResponse {
        let key = request.parameter("key")
        let values = Dictionary(uniqueKeysWithValues: CriteriaPage.names.map { ($0, request.field($0)) })
        let (overrides, readErrors) = CriteriaOverrides.read(CriteriaPage.json(values))
        switch try ServiceRefusal.attempt({ try services.fixes.setCriteria(of: key, to: overrides, readErrors: readErrors, by: try request.signedIn) }) {
        case .success(let fix): return .seeOther("/console/fixes/\(fix.key.rawValue)?done=criteria")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            let fix = try services.fixes.fix(key, for: try request.signedIn)
            return render(request, fix: fix, values: values,
                          issues: CriteriaPage.fields(request.messages).issues(from: refusal.issues, messages: request.messages))
        }
    }

    /// The API's body: a whole number as a number, anything else as typed, for the reader to accept or refuse.
    static func json(_ values: [String: String]) -> JSONValue {
        var object = JSONObject()
        for (name, text) in values where !text.isEmpty {
            if name == "min_pass_ratio", let ratio = Double(text) { object[name] = .number(ratio) }
            else if !["min_soak", "required_assistive_tech"].contains(name), let count = Int(text) { object[name] = .int(count) }
            else { object[name] = .string(text) }
        }
        return .object(object)
    }

    private func render(_ request: ConsoleRequest, fix: Fix, values: [String: String], issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        let hints: [String: String] = ["min_testers_passed": messages[.criteriaFormCountHint], "required_assistive_tech": messages[.criteriaFormTechHint],
                                       "max_blocking": messages[.criteriaFormCountHint], "min_pass_ratio": messages[.criteriaFormRatioHint],
                                       "min_soak": messages[.criteriaFormSoakHint], "approvals_required": messages[.criteriaFormApprovalsHint]]
        let fields = CriteriaPage.names.map { name -> HTML in
            TextField(name: name, label: ReviewWords.criterion(name, messages), hint: hints[name], value: values[name] ?? "",
                      issue: issues.first { $0.field == name }, autocomplete: "off",
                      width: name == "required_assistive_tech" ? nil : "input--short", spellcheck: false).render(messages)
        }
        let path = "/console/fixes/\(fix.key.rawValue)"
        return request.translatedPage(messages(.criteriaFormTitle, ["title": fix.title]), issues: issues,
                                      backLink: BackLink(href: path, text: messages[.decisionBackToFix]), content: """
        <h1 class="heading-l">\(messages.html(.criteriaFormTitle, ["title": messages.title(of: fix)]))</h1>
        <p class="body">\(messages[.criteriaFormIntro])</p>
        \(request.form(path + "/criteria", HTML.join(fields) + Button(messages[.criteriaFormSave]).render()))
        """)
    }
}
