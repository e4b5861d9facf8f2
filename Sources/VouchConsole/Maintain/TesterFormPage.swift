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
            return render(request, form: form, issues: form.issues(from: refusal.issues, request.messages))
        }
    }

    private func render(_ request: ConsoleRequest, form: TesterForm, issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        return request.translatedPage(messages[.testerFormTitle], issues: issues,
                                      backLink: BackLink(href: "/console/testers", text: messages[.testerBackToTesters]), content: """
        <h1 class="heading-l">\(messages[.testerFormTitle])</h1>
        <p class="body">\(messages[.testerFormIntro])</p>
        \(request.form("/console/testers/new", form.render(issues: issues, messages) + Button(messages[.testerFormButton]).render()))
        """)
    }
}
