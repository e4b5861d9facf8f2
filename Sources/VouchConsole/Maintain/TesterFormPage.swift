import VouchCodec
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// Adding a tester, with their explicit consent recorded (`/console/testers/new`): no consent, no tester.
struct TesterFormPage {
    let routes: ConsoleRoutes
    let services: Services

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/testers/new", .permission(.manageTesters), show: newForm, submit: create)
    }

    func newForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        render(request, form: TesterForm(), issues: [])
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let form = TesterForm(request)
        // The form's entries are read as the API reads its body, so a problem has the same words either way.
        let (draft, readErrors) = TesterDraft.read(form.json)
        switch try ServiceRefusal.attempt({ try services.testers.create(draft, readErrors: readErrors, by: try request.signedIn) }) {
        case .success(let tester): return .seeOther("/console/testers/\(tester.id)?done=created")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return render(request, form: form, issues: form.issues(from: refusal.issues))
        }
    }

    private func render(_ request: ConsoleRequest, form: TesterForm, issues: [FieldIssue]) -> HTTPResponse {
        request.page("Add a tester", issues: issues, backLink: BackLink(href: "/console/testers", text: "Back to testers"), content: """
        <h1 class="heading-l">Add a tester</h1>
        <p class="body">A tester verifies fixes with their own assistive technology. Elsewhere in Vouch they are known only by a pseudonym (t_…): feedback, the audit log and webhooks never carry their name.</p>
        \(request.form("/console/testers/new", form.render(issues: issues) + Button("Add tester").render()))
        """)
    }
}
