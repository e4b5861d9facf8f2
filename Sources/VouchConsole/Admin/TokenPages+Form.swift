import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices
import VouchJSON

/// "Create a token": the form, its problems, and the one page that shows the new token's secret.
extension TokenPages {
    /// What the person entered, kept as typed so a page with problems shows it again.
    struct Entry {
        var name = ""
        var role = ""
        var tester = ""
        var principal = ""
        var email = ""

        init() {}

        init(_ request: ConsoleRequest) {
            name = request.field("name")
            role = request.field("role")
            tester = request.field("tester")
            principal = request.field("principal")
            email = request.field("email")
        }

        /// A field as the token service takes it: an empty field is not given, so the service says what a missing
        /// one means.
        func given(_ value: String) -> String? { value.isEmpty ? nil : value }
    }

    static let formIssues = FormFields([("name", "Name"), ("role", "Role"), ("tester", "Tester id"), ("principal", "Issued to"),
                                        ("email", "Email address")])

    /// What each role may do, as the hint under its radio.
    static func roleHint(_ role: Role) -> String {
        switch role {
        case .admin: "Everything, including tokens and webhooks."
        case .releaseManager: "Approves or rejects fixes, promotes, pauses, resumes and rolls them back; reads everything."
        case .maintainer: "Creates and changes fixes, testers and enrollments, records feedback for testers; reads everything."
        case .tester: "Acts as one tester: reads the fixes they are enrolled in and sends their own feedback."
        case .sdk: "For an app: evaluates flags only, and cannot sign in to this console."
        }
    }

    /// "Release manager" for "release manager".
    static func capitalized(_ words: String) -> String { words.prefix(1).uppercased() + words.dropFirst() }

    func newForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        renderForm(request, entry: Entry(), issues: [])
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let entry = Entry(request)
        let outcome = try ServiceRefusal.attempt {
            try services.tokens.create(name: entry.given(entry.name), role: entry.given(entry.role), tester: entry.given(entry.tester),
                                       issuedTo: entry.given(entry.principal), email: entry.given(entry.email), by: try request.signedIn)
        }
        let token: TokenRecord
        let secret: String
        switch outcome {
        case .success(let created):
            token = created.token
            secret = created.secret
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            // A radio has no default, so an empty role is a question not answered, said as GOV.UK says it.
            let issues = Self.formIssues.issues(from: refusal.issues).map { issue in
                issue.field == "role" && entry.role.isEmpty ? FieldIssue(field: "role", message: "Choose what the token may do") : issue
            }
            return renderForm(request, entry: entry, issues: issues)
        }
        let role = Words.role(token.role)
        // The secret is in this answer only: it is shown here, never put in an address or kept for a later page.
        var response = request.page("Token created", banner: NotificationBanner(.success, heading: "The token \(entry.name) is created"), content: """
        <h1 class="heading-l">Token created</h1>
        \(SummaryList([SummaryList.Row("Name", text: token.name),
                       SummaryList.Row("Issued to", text: token.principalName),
                       SummaryList.Row("Role", text: token.testerID.map { "\(role), for tester \($0)" } ?? role)]).render())
        \(OneTimeSecret(label: "Secret", value: secret, keepAdvice: "where the person or app that uses it keeps secrets, such as a password manager or the app's configuration").render())
        <p class="body">People sign in to this console with it; apps and scripts send it as <code>Authorization: Bearer</code>, or in <code>VOUCH_TOKEN</code> for the vouch command.</p>
        <p class="body"><a href="/console/tokens">Back to all tokens</a></p>
        """)
        response.status = 201
        return response
    }

    private func renderForm(_ request: ConsoleRequest, entry: Entry, issues: [FieldIssue]) -> HTTPResponse {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let roles = Role.allCases.map { RadioGroup.Option($0.rawValue, TokenPages.capitalized(Words.role($0)), hint: TokenPages.roleHint($0)) }
        let fields = [
            TextField(name: "name", label: "Name", hint: "What the token is for, such as rita-laptop or ios-app.", value: entry.name, issue: issue("name"),
                      autocomplete: "off", width: "input--medium", spellcheck: false).render(),
            RadioGroup(name: "role", legend: "What may it do?", options: roles, selected: entry.role, issue: issue("role")).render(),
            TextField(name: "tester", label: "Tester id (only for the role tester)",
                      hint: "The tester the token acts as, such as t_4w9tedpdf8fc: the id on the tester's page. Leave it empty for every other role.",
                      value: entry.tester, issue: issue("tester"), autocomplete: "off", width: "input--medium", spellcheck: false).render(),
            TextField(name: "principal", label: "Issued to (optional)",
                      hint: "The person or system who holds it, such as rita. Empty means the token's name. Four-eyes rules compare this, never token names. Not for the role tester.",
                      value: entry.principal, issue: issue("principal"), autocomplete: "off", width: "input--medium", spellcheck: false).render(),
            TextField(name: "email", label: "Email address (optional)",
                      hint: "Where Vouch sends the holder mail about what they must act on, such as rita@example.org: fixes waiting for a decision, "
                          + "blocking reports, failed promotions. Not for the role tester.",
                      value: entry.email, issue: issue("email"), type: "email", autocomplete: "off", spellcheck: false).render(),
            Button("Create the token").render(),
        ]
        return request.page("Create a token", issues: issues, backLink: BackLink(href: "/console/tokens", text: "All tokens"), content: """
        <h1 class="heading-l">Create a token</h1>
        <p class="body">Its secret is shown once, on the next page.</p>
        \(request.form("/console/tokens/new", HTML.join(fields)))
        """)
    }
}
