import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// A fix's direct targets: keys the flag is on for while the fix is in testing without a tester's enrollment, such
/// as a QA device or a test account (`/console/fixes/{key}/targets`). As in the API, every staff role reads them and
/// those who edit fixes change them.
struct TargetPages {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    static func fields(_ messages: Messages) -> FormFields {
        FormFields([("add", messages[.targetsAddLabel]), ("remove", messages[.targetsRemoveLabel])])
    }

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/fixes/{key}/targets", .permission(.readAll), show)
        routes.post(&router, "/console/fixes/{key}/targets", .permission(.editFixes), change)
    }

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let banner: NotificationBanner? = switch request.http.query["done"] {
        case "added": NotificationBanner(.success, heading: messages[.targetsAdded], body: "<p class=\"body\">\(messages[.targetsAddedText])</p>")
        case "removed": NotificationBanner(.success, heading: messages[.targetsRemoved], body: "<p class=\"body\">\(messages[.targetsRemovedText])</p>")
        default: nil
        }
        return try render(request, fix: try lookup.fix(request), adding: "", removing: [], issues: [], banner: banner)
    }

    /// One address for both forms: the add form sends `add`, the remove form `remove` (its checkboxes) and `change=remove`.
    func change(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try lookup.fix(request)
        let key = fix.key.rawValue
        let removing = request.field("change") == "remove"
        let adding = request.form["add"] ?? ""
        let keys = removing ? request.form.values("remove") : FormFields.list(adding)
        let field = removing ? "remove" : "add"
        guard !keys.isEmpty else {
            let message = request.messages[removing ? .targetsSelectToRemove : .targetsEnterToAdd]
            return try render(request, fix: fix, adding: adding, removing: [], issues: [FieldIssue(field: field, message: message)], banner: nil)
        }
        let outcome = try ServiceRefusal.attempt {
            try services.targets.change(key, adding: removing ? [] : keys, removing: removing ? keys : [], by: try request.signedIn)
        }
        switch outcome {
        case .success: return .seeOther("/console/fixes/\(key)/targets?done=\(removing ? "removed" : "added")")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return try render(request, fix: fix, adding: adding, removing: removing ? Set(keys) : [],
                              issues: TargetPages.fields(request.messages).issues(from: refusal.issues, values: [field: keys], messages: request.messages),
                              banner: nil)
        }
    }

    private func render(_ request: ConsoleRequest, fix: Fix, adding: String, removing: Set<String>, issues: [FieldIssue],
                        banner: NotificationBanner?) throws -> HTTPResponse {
        let key = fix.key.rawValue
        let messages = request.messages
        let targets = try lookup.store.targets(of: key)
        let action = "/console/fixes/\(key)/targets"
        let edits = try request.signedIn.allows(.editFixes)
        let current: HTML = targets.isEmpty || !edits
            ? "<h2 class=\"heading-m\">\(messages[.targetsCurrent])</h2>" + (targets.isEmpty ? "<p class=\"body\">\(messages[.targetsNone])</p>"
                : "<ul class=\"list\">\(targets.map { target -> HTML in "<li><code>\(target)</code></li>" })</ul>")
            : request.form(action, Form.hidden("change", "remove") + CheckboxGroup(
                name: "remove", legend: messages[.targetsCurrent], heading: .sectionHeading, hint: messages[.targetsRemoveHint],
                options: targets.map { RadioGroup.Option($0, $0) }, selected: removing, issue: issues.first { $0.field == "remove" }).render(messages)
                + Button(messages[.targetsRemoveButton], kind: .warning).render())
        let addField = TextArea(name: "add", label: messages[.targetsAddLabel], heading: .sectionHeading, hint: messages[.targetsAddHint],
                                value: adding, issue: issues.first { $0.field == "add" }, rows: 4)
        return request.translatedPage(messages(.targetsTitle, ["title": fix.title]), issues: issues,
                                      backLink: BackLink(href: "/console/fixes/\(key)", text: messages[.decisionBackToFix]), banner: banner, content: """
        <h1 class="heading-l">\(messages.html(.targetsTitle, ["title": messages.title(of: fix)]))</h1>
        <p class="body">\(messages[.targetsIntro])</p>
        <p class="body">\(messages.html(.enrollmentsStateOfFix, ["state": Words.stateTag(fix.state, messages).render()]))</p>
        \(current)
        \(edits ? request.form(action, addField.render(messages) + Button(messages[.targetsAddButton]).render()) : .empty)
        """)
    }
}
