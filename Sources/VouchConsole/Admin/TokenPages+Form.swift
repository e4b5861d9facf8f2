import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices
import VouchJSON

/// "Create a token": the form, its problems, and the one page its redirect leads to, which shows the new secret once.
extension TokenPages {
    /// What the person entered, kept as typed so a page with problems shows it again.
    struct Entry {
        var name = ""
        var role = ""
        var tester = ""
        var principal = ""
        var email = ""
        var flagDefinitions = false

        init() {}

        init(_ request: ConsoleRequest) {
            name = request.field("name")
            role = request.field("role")
            tester = request.field("tester")
            principal = request.field("principal")
            email = request.field("email")
            flagDefinitions = request.field("flag_definitions") == "true"
        }

        /// A field as the token service takes it: an empty field is not given, so the service says what a missing
        /// one means.
        func given(_ value: String) -> String? { value.isEmpty ? nil : value }
    }

    static func formIssues(_ messages: Messages) -> FormFields {
        FormFields([("name", messages[.tokensName]), ("role", messages[.tokensRole]), ("tester", messages[.tokensTesterID]),
                    ("principal", messages[.tokensIssuedTo]), ("email", messages[.tokensEmail]),
                    ("flag_definitions", messages[.tokenFlagDefinitionsLegend])])
    }

    /// What each role may do, as the hint under its radio.
    static func roleHint(_ role: Role, _ messages: Messages) -> String {
        switch role {
        case .admin: messages[.tokensHintAdmin]
        case .releaseManager: messages[.tokensHintReleaseManager]
        case .maintainer: messages[.tokensHintMaintainer]
        case .tester: messages[.tokensHintTester]
        case .sdk: messages[.tokensHintSdk]
        }
    }

    /// "Release manager" for "release manager".
    static func capitalized(_ words: String) -> String { words.prefix(1).uppercased() + words.dropFirst() }

    func newForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        renderForm(request, entry: Entry(), issues: [])
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let entry = Entry(request)
        let messages = request.messages
        let outcome = try ServiceRefusal.attempt {
            try services.tokens.create(name: entry.given(entry.name), role: entry.given(entry.role), tester: entry.given(entry.tester),
                                       issuedTo: entry.given(entry.principal), email: entry.given(entry.email),
                                       flagDefinitions: entry.flagDefinitions ? true : nil, by: try request.signedIn)
        }
        switch outcome {
        case .success(let created):
            let token = created.token
            return try routes.reveal(["secret": created.secret, "name": token.name, "principal": token.principalName, "role": token.role.rawValue,
                                      "tester": token.testerID ?? ""], at: "/console/tokens/\(token.id)/created", request)
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            // A radio has no default, so an empty role is a question not answered, said as GOV.UK says it.
            let issues = Self.formIssues(messages).issues(from: refusal.issues, messages: messages).map { issue in
                issue.field == "role" && entry.role.isEmpty ? FieldIssue(field: "role", message: messages[.tokensChooseRole]) : issue
            }
            return renderForm(request, entry: entry, issues: issues)
        }
    }

    /// The one page that shows a new token's secret (`ConsoleRoutes.reveal`).
    func created(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        return try routes.revealed(request, next: (href: "/console/tokens", text: messages[.tokensBackToAll])) { kept in
            let secretBox = OneTimeSecret(label: messages[.tokensSecret], value: kept["secret"] ?? "",
                                          keepAdvice: "where the person or app that uses it keeps secrets, such as a password manager or the app's configuration",
                                          warning: messages[.tokensSecretWarning])
            let use = messages.html(.tokensUse, ["header": "<code>Authorization: Bearer</code>", "variable": "<code>VOUCH_TOKEN</code>"])
            let role = Role(rawValue: kept["role"] ?? "").map { TokenPages.roleWords($0, tester: kept["tester"].flatMap { $0.isEmpty ? nil : $0 }, messages) } ?? ""
            // No language link: following one would find the secret taken.
            return request.translatedPage(messages[.tokensCreated],
                                          banner: NotificationBanner(.success, heading: messages(.tokensCreatedBanner, ["name": kept["name"] ?? ""])),
                                          switcher: false, content: """
            <h1 class="heading-l">\(messages[.tokensCreated])</h1>
            \(SummaryList([SummaryList.Row(messages[.tokensName], text: kept["name"] ?? ""),
                           SummaryList.Row(messages[.tokensIssuedTo], text: kept["principal"] ?? ""),
                           SummaryList.Row(messages[.tokensRole], text: role)]).render(messages))
            \(secretBox.render(messages))
            <p class="body">\(use)</p>
            <p class="body"><a href="/console/tokens">\(messages[.tokensBackToAll])</a></p>
            """)
        }
    }

    private func renderForm(_ request: ConsoleRequest, entry: Entry, issues: [FieldIssue]) -> HTTPResponse {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let messages = request.messages
        let roles = Role.allCases.map { RadioGroup.Option($0.rawValue, TokenPages.capitalized(messages.role($0)), hint: TokenPages.roleHint($0, messages)) }
        let fields = [
            TextField(name: "name", label: messages[.tokensName], hint: messages[.tokensNameHint], value: entry.name, issue: issue("name"),
                      autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            RadioGroup(name: "role", legend: messages[.tokensMayDo], options: roles, selected: entry.role, issue: issue("role")).render(messages),
            TextField(name: "tester", label: messages[.tokensTesterLabel], hint: messages[.tokensTesterHint],
                      value: entry.tester, issue: issue("tester"), autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            TextField(name: "principal", label: messages[.tokensIssuedToOptional], hint: messages[.tokensIssuedToHint],
                      value: entry.principal, issue: issue("principal"), autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            TextField(name: "email", label: messages[.tokensEmailOptional], hint: messages[.tokensEmailHint],
                      value: entry.email, issue: issue("email"), type: "email", autocomplete: "off", spellcheck: false).render(messages),
            CheckboxGroup(name: "flag_definitions", legend: messages[.tokenFlagDefinitionsLegend], options: [
                RadioGroup.Option("true", messages[.tokenFlagDefinitionsLabel], hint: messages[.tokenFlagDefinitionsHint]),
            ], selected: entry.flagDefinitions ? ["true"] : [], issue: issue("flag_definitions")).render(messages),
            Button(messages[.tokensCreateButton]).render(),
        ]
        return request.translatedPage(messages[.tokensCreate], issues: issues, backLink: BackLink(href: "/console/tokens", text: messages[.tokensCaption]),
                                      content: """
        <h1 class="heading-l">\(messages[.tokensCreate])</h1>
        <p class="body">\(messages[.tokensShownOnce])</p>
        \(request.form("/console/tokens/new", HTML.join(fields)))
        """)
    }
}
