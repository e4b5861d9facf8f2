import VouchCodec
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// Editing a tester's details as the API's `PATCH /v1/testers/{id}` does (`/console/testers/{id}/edit`): name, contact,
/// email, assistive technologies, targeting keys, and a new consent version with her consent to it.
struct TesterEditPage {
    let routes: ConsoleRoutes
    let services: Services

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/testers/{id}/edit", .permission(.manageTesters), show: editForm, submit: save)
    }

    func editForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        let tester = try activeTester(request)
        return render(request, tester: tester, form: TesterForm(tester), issues: [])
    }

    func save(_ request: ConsoleRequest) throws -> HTTPResponse {
        let tester = try activeTester(request)
        let form = TesterForm(request, recordedConsent: tester.consent.version)
        // A new consent version is her consent to a new text: without the box ticked, nothing is changed.
        if form.consentChanged, !form.consentGiven {
            return render(request, tester: tester, form: form, issues: form.issues(from: [], request.messages))
        }
        // The form's entries are read as the API reads its body, so a problem has the same words either way.
        let (draft, readErrors) = TesterDraft.read(form.json)
        switch try ServiceRefusal.attempt({ try services.testers.update(tester.id, with: draft, readErrors: readErrors, by: try request.signedIn) }) {
        case .success: return .seeOther("/console/testers/\(tester.id)?done=edited")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return render(request, tester: tester, form: form, issues: form.issues(from: refusal.issues, request.messages))
        }
    }

    /// The tester, through the service that says who may see her; a withdrawn tester has nothing left to edit.
    private func activeTester(_ request: ConsoleRequest) throws -> Tester {
        let tester = try services.testers.tester(request.parameter("id"), for: try request.signedIn)
        guard tester.isActive else {
            throw Problem(status: 409, detail: "tester \(tester.id) has withdrawn; their data was erased and cannot be changed")
        }
        return tester
    }

    private func render(_ request: ConsoleRequest, tester: Tester, form: TesterForm, issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        let name = TesterWords.name(tester, messages)
        return request.translatedPage(messages(.testerEditTitle, ["name": name]), issues: issues,
                                      backLink: BackLink(href: "/console/testers/\(tester.id)", text: messages(.linkBackToPage, ["name": name])),
                                      content: """
        <h1 class="heading-l">\(messages(.testerEditTitle, ["name": name]))</h1>
        <p class="body">\(messages[.testerEditIntro])</p>
        \(request.form("/console/testers/\(tester.id)/edit", form.render(issues: issues, messages) + Button(messages[.testerEditSave]).render()))
        """)
    }
}
