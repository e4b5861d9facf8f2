import VouchConsole
import VouchDomain
import VouchHTTP

/// Adding a tester, with their explicit consent recorded (`/console/testers/new`): no consent, no tester.
struct TesterFormPage {
    let routes: ConsoleRoutes
    let api: ConsoleAPI

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/testers/new", .permission(.manageTesters), show: newForm, submit: create)
    }

    func newForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        render(request, form: TesterForm(), issues: [])
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let form = TesterForm(request)
        let answer = api.call("POST", "/v1/testers", body: form.json, as: try request.signedIn)
        if answer.isSuccess, let id = answer.json["id"]?.stringValue { return .seeOther("/console/testers/\(id)?done=created") }
        guard answer.status == 422 else { throw answer.refusal }
        return render(request, form: form, issues: form.issues(from: answer.issues))
    }

    private func render(_ request: ConsoleRequest, form: TesterForm, issues: [FieldIssue]) -> HTTPResponse {
        request.page("Add a tester", issues: issues, backLink: BackLink(href: "/console/testers", text: "Back to testers"), content: """
        <h1 class="heading-l">Add a tester</h1>
        <p class="body">A tester verifies fixes with their own assistive technology. Elsewhere in Vouch they are known only by a pseudonym (t_…): feedback, the audit log and webhooks never carry their name.</p>
        \(request.form("/console/testers/new", form.render(issues: issues) + Button("Add tester").render()))
        """)
    }
}
