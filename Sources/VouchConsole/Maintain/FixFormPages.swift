import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// Creating a fix and editing its details: `/console/fixes/new` and `/console/fixes/{key}/edit`.
struct FixFormPages {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/fixes/new", .permission(.editFixes), show: newForm, submit: create)
        routes.form(&router, "/console/fixes/{key}/edit", .permission(.editFixes), show: editForm, submit: edit)
    }

    func newForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        renderNew(request, form: FixForm(), issues: [])
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let form = FixForm(request)
        switch try ServiceRefusal.attempt({ try services.fixes.create(form.draft(includingKey: true), by: try request.signedIn) }) {
        case .success(let fix): return .seeOther("/console/fixes/\(fix.key.rawValue)?done=created")
        case .failure(let refusal) where refusal.status == 422:
            return renderNew(request, form: form, issues: FixForm.fields.issues(from: refusal.issues))
        case .failure(let refusal) where refusal.status == 409:
            let issue = FieldIssue(field: "key", message: "A fix with the key '\(form.key)' already exists: choose another key")
            return renderNew(request, form: form, issues: [issue])
        case .failure(let refusal): throw refusal.problem
        }
    }

    private func renderNew(_ request: ConsoleRequest, form: FixForm, issues: [FieldIssue]) -> HTTPResponse {
        request.page("Create a fix", issues: issues, backLink: BackLink(href: "/console/fixes", text: "Back to fixes"), content: """
        <h1 class="heading-l">Create a fix</h1>
        <p class="body">A new fix is a draft: its flag stays off for everyone until you start testing it.</p>
        \(request.form("/console/fixes/new", form.render(issues: issues, includingKey: true) + Button("Create fix").render()))
        """)
    }

    func editForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try lookup.fix(request)
        return renderEdit(request, fix: fix, form: FixForm(fix), issues: [])
    }

    func edit(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try lookup.fix(request)
        let form = FixForm(request)
        let key = fix.key.rawValue
        switch try ServiceRefusal.attempt({ try services.fixes.update(key, with: form.draft(includingKey: false), by: try request.signedIn) }) {
        case .success: return .seeOther("/console/fixes/\(key)?done=edited")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return renderEdit(request, fix: fix, form: form, issues: FixForm.fields.issues(from: refusal.issues))
        }
    }

    private func renderEdit(_ request: ConsoleRequest, fix: Fix, form: FixForm, issues: [FieldIssue]) -> HTTPResponse {
        let key = fix.key.rawValue
        let title = "Edit fix: \(fix.title)"
        return request.page(title, issues: issues, backLink: BackLink(href: "/console/fixes/\(key)", text: "Back to the fix"), content: """
        <h1 class="heading-l">\(title)</h1>
        \(SummaryList([.init("Flag key", "<code>\(key)</code>"), .init("State", Words.stateTag(fix.state).render())]).render())
        <p class="body">The flag key cannot be changed. Changing the details does not start a new revision: revise the fix when its build changes.</p>
        \(request.form("/console/fixes/\(key)/edit", form.render(issues: issues, includingKey: false) + Button("Save changes").render()))
        """)
    }
}
