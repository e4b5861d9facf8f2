import VouchConsoleKit
import VouchDomain
import VouchServices

/// The assistive-technology question: up to three rows of technology, platform, version and, on the web, browser,
/// each field named as the API names it (`assistive_tech[1].platform`). Lists rather than radios, so a row can be
/// emptied again.
struct JoinTechnologyForm {
    var rows: [JoinAnswers.Technology]
    var issues: [FieldIssue]

    /// The rows as sent, in their places on the form.
    static func rows(from request: ConsoleRequest) -> [JoinAnswers.Technology] {
        (0..<JoinService.technologyRows).map { index in
            let field = "assistive_tech[\(index)]"
            return JoinAnswers.Technology(name: request.field(field + ".name"), platform: request.field(field + ".platform"),
                                          version: request.field(field + ".version"), browser: request.field(field + ".browser"))
        }
    }

    func render(title: String, _ messages: Messages) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let technologies = AssistiveTechnology.allCases.map { RadioGroup.Option($0.rawValue, messages.technology($0)) }
        let platforms = [Platform.ios, .android, .web].map { RadioGroup.Option($0.rawValue, JoinWords.platform($0, messages)) }
        let browsers = Browser.allCases.map { RadioGroup.Option($0.rawValue, messages.browser($0)) }
        let groups = (0..<JoinService.technologyRows).map { index -> HTML in
            let row = index < rows.count ? rows[index] : JoinAnswers.Technology()
            let field = "assistive_tech[\(index)]"
            let legend = messages(index == 0 ? .joinTechnologyRow : .joinTechnologyRowOptional, ["number": messages.number(index + 1)])
            return """
            <fieldset class="field-row">
            <legend class="fieldset__legend">\(legend)</legend>
            \(Select(name: field + ".name", label: messages[.joinTechnology], options: technologies, placeholder: messages[.joinChooseTechnology],
                     selected: row.name, issue: issue(field + ".name")).render(messages))
            \(Select(name: field + ".platform", label: messages[.joinPlatform], options: platforms, placeholder: messages[.joinChoosePlatform],
                     selected: row.platform, issue: issue(field + ".platform")).render(messages))
            \(TextField(name: field + ".version", label: messages[.joinTechnologyVersion], value: row.version, issue: issue(field + ".version"),
                        autocomplete: "off", width: "input--short", spellcheck: false).render(messages))
            \(Select(name: field + ".browser", label: messages[.joinBrowser], options: browsers, placeholder: messages[.joinChooseBrowser],
                     selected: row.browser, issue: issue(field + ".browser")).render(messages))
            </fieldset>
            """
        }
        return """
        <h1 class="heading-l">\(title)</h1>
        <p class="hint">\(messages[.joinTechnologyHint])</p>
        \(groups)
        """
    }
}
