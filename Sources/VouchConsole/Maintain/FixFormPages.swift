import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// Creating a fix and editing its details: `/console/new-fix` and `/console/fixes/{key}/edit`. The form is outside
/// `/console/fixes/`, where the segment after it always names a fix, so a fix keyed `new` (or `edit`) has its page.
struct FixFormPages {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/new-fix", .permission(.editFixes), show: newForm, submit: create)
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
            return renderNew(request, form: form, issues: FixForm.fields(request.messages).issues(from: refusal.issues, messages: request.messages))
        case .failure(let refusal) where refusal.status == 409:
            let issue = FieldIssue(field: "key", message: request.messages(.fixFormKeyTaken, ["key": form.key]))
            return renderNew(request, form: form, issues: [issue])
        case .failure(let refusal): throw refusal.problem
        }
    }

    private func renderNew(_ request: ConsoleRequest, form: FixForm, issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        return request.translatedPage(messages[.fixFormCreateTitle], issues: issues,
                                      backLink: BackLink(href: "/console/fixes", text: messages[.fixFormBackToFixes]), content: """
        <h1 class="heading-l">\(messages[.fixFormCreateTitle])</h1>
        <p class="body">\(messages[.fixFormCreateIntro])</p>
        \(request.form("/console/new-fix", form.render(issues: issues, includingKey: true, messages) + Button(messages[.fixFormCreateButton]).render()))
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
            return renderEdit(request, fix: fix, form: form, issues: FixForm.fields(request.messages).issues(from: refusal.issues, messages: request.messages))
        }
    }

    private func renderEdit(_ request: ConsoleRequest, fix: Fix, form: FixForm, issues: [FieldIssue]) -> HTTPResponse {
        let key = fix.key.rawValue
        let messages = request.messages
        return request.translatedPage(messages(.fixFormEditTitle, ["title": fix.title]), issues: issues,
                                      backLink: BackLink(href: "/console/fixes/\(key)", text: messages[.decisionBackToFix]), content: """
        <h1 class="heading-l">\(messages.html(.fixFormEditTitle, ["title": messages.title(of: fix)]))</h1>
        \(SummaryList([.init(messages[.fixFormFlagKey], "<code>\(key)</code>"), .init(messages[.fixFormState], Words.stateTag(fix.state, messages).render())])
            .render(messages))
        <p class="body">\(messages[.fixFormEditIntro])</p>
        \(request.form("/console/fixes/\(key)/edit", form.render(issues: issues, includingKey: false, messages) + Button(messages[.fixFormSave]).render()))
        """)
    }
}
