import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// A fix's direct targets: keys the flag is on for while the fix is in testing without a tester's enrollment, such
/// as a QA device or a test account (`/console/fixes/{key}/targets`).
struct TargetPages {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    static let fields = FormFields([("add", "Targeting keys to add"), ("remove", "Keys to remove")])

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/fixes/{key}/targets", .permission(.editFixes), show: show, submit: change)
    }

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let banner: NotificationBanner? = switch request.http.query["done"] {
        case "added": NotificationBanner(.success, heading: "Targeting keys added", body: "<p class=\"body\">While the fix is in testing, the flag is on for them.</p>")
        case "removed": NotificationBanner(.success, heading: "Targeting keys removed", body: "<p class=\"body\">The flag follows the fix's other rules for them again.</p>")
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
            let message = removing ? "Select the keys to remove" : "Enter at least one targeting key to add"
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
                              issues: TargetPages.fields.issues(from: refusal.issues, values: [field: keys]), banner: nil)
        }
    }

    private func render(_ request: ConsoleRequest, fix: Fix, adding: String, removing: Set<String>, issues: [FieldIssue],
                        banner: NotificationBanner?) throws -> HTTPResponse {
        let key = fix.key.rawValue
        let targets = try lookup.store.targets(of: key)
        let action = "/console/fixes/\(key)/targets"
        let current: HTML = targets.isEmpty
            ? "<h2 class=\"heading-m\">Current direct targets</h2><p class=\"body\">None yet: only enrolled testers' keys get the fix while it is in testing.</p>"
            : request.form(action, Form.hidden("change", "remove") + CheckboxGroup(
                name: "remove", legend: "Current direct targets", heading: .sectionHeading, hint: "Select the keys that should no longer get the fix directly.",
                options: targets.map { RadioGroup.Option($0, $0) }, selected: removing, issue: issues.first { $0.field == "remove" }).render()
                + Button("Remove selected keys", kind: .warning).render())
        let addField = TextArea(name: "add", label: "Targeting keys to add", heading: .sectionHeading,
                                hint: "One per line, or separated by commas. A key is the app's user id for a device or an account (the OpenFeature targetingKey), such as qa-iphone-15.",
                                value: adding, issue: issues.first { $0.field == "add" }, rows: 4)
        let title = "Direct targets: \(fix.title)"
        return request.page(title, issues: issues, backLink: BackLink(href: "/console/fixes/\(key)", text: "Back to the fix"), banner: banner, content: """
        <h1 class="heading-l">\(title)</h1>
        <p class="body">A direct target is a targeting key, such as a QA device's or a test account's, that should see the fix without being an enrolled tester. While the fix is in testing its flag is on for these keys and for enrolled testers' keys, and off for everyone else.</p>
        <p class="body">State of the fix: \(Words.stateTag(fix.state).render())</p>
        \(current)
        \(request.form(action, addField.render() + Button("Add keys").render()))
        """)
    }
}
