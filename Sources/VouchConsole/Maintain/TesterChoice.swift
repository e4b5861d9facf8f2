import VouchConsoleKit
import VouchDomain

/// The form that adds testers to something (a fix's enrolled testers, a panel): a box for each tester not in it yet,
/// named with her pseudonym and her assistive technologies, since two testers may share a name.
struct TesterChoice {
    var legend: String
    var hint: String
    var button: String

    func form(_ request: ConsoleRequest, action: String, candidates: [Tester], chosen: Set<String>, issue: FieldIssue?) -> HTML {
        let messages = request.messages
        let options = candidates.map { RadioGroup.Option($0.id, "\(TesterWords.name($0, messages)) (\($0.id))", hint: TesterWords.assistiveTech(of: $0, messages)) }
        return request.form(action, CheckboxGroup(name: "testers", legend: legend, heading: .sectionHeading, hint: hint, options: options,
                                                  selected: chosen, issue: issue).render(messages) + Button(button).render())
    }
}
