import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices
import VouchJSON

/// "Add a webhook": the form, its problems, and the one page its redirect leads to, which shows the signing secret once.
extension WebhookPages {
    /// What the person entered, kept as typed so a page with problems shows it again.
    struct Entry {
        var url = ""
        var events: Set<String> = []
        var required = ""
        var enabled = ""
        /// Empty until chosen (no radio is chosen for the person): then the service's default, Standard Webhooks.
        var format = ""
        var tokenFile = ""

        init() {}

        /// The receiver as it is, for the form that edits it.
        init(_ endpoint: WebhookEndpoint) {
            url = endpoint.url
            events = Set(endpoint.events.map(\.rawValue))
            required = endpoint.required ? "true" : "false"
            enabled = endpoint.enabled ? "true" : "false"
            format = endpoint.format.rawValue
            tokenFile = endpoint.tokenFile ?? ""
        }

        init(_ request: ConsoleRequest) {
            url = request.field("url")
            events = Set(request.form.values("events"))
            required = request.field("required")
            enabled = request.field("enabled")
            format = request.field("format")
            tokenFile = request.field("token_file")
        }

        /// What the form must say before the service is asked: the radios have no default, so each needs an answer.
        func unanswered(_ messages: Messages) -> [FieldIssue] {
            var issues: [FieldIssue] = []
            if url.isEmpty { issues.append(FieldIssue(field: "url", message: messages[.webhookFormEnterURL])) }
            if !["true", "false"].contains(required) {
                issues.append(FieldIssue(field: "required", message: messages[.webhookFormChooseRequired]))
            }
            if !["true", "false"].contains(enabled) {
                issues.append(FieldIssue(field: "enabled", message: messages[.webhookFormChooseEnabled]))
            }
            return issues
        }

        /// The new webhook's fields: the form's names are the API's, and an event name the service does not know is
        /// handed on for it to refuse.
        var fields: WebhookService.Fields {
            let chosen = WebhookEventType.subscribable.map(\.rawValue).filter(events.contains) + events.subtracting(WebhookEvent.types).sorted()
            return WebhookService.Fields(url: url, events: chosen, required: required == "true", enabled: enabled == "true",
                                         format: format.isEmpty ? nil : format, tokenFile: tokenFile.isEmpty ? nil : .some(tokenFile))
        }
    }

    static func formIssues(_ messages: Messages) -> FormFields {
        FormFields([("url", messages[.webhooksUrl]), ("events", messages[.webhooksEvents]), ("required", messages[.webhooksRequired]),
                    ("enabled", messages[.webhookFormEnabledLabel]), ("format", messages[.webhookFormatsLegend]),
                    ("token_file", messages[.webhookFormatsTokenFile])])
    }

    func newForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        renderForm(request, entry: Entry(), issues: [])
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let entry = Entry(request)
        let unanswered = entry.unanswered(messages)
        guard unanswered.isEmpty else { return renderForm(request, entry: entry, issues: unanswered) }
        switch try ServiceRefusal.attempt({ try services.webhooks.create(entry.fields, by: try request.signedIn) }) {
        case .success(let endpoint):
            return try routes.reveal(["secret": endpoint.secret, "url": endpoint.url], at: "/console/webhooks/\(endpoint.id)/created", request)
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return renderForm(request, entry: entry, issues: Self.formIssues(messages).issues(from: refusal.issues, messages: messages))
        }
    }

    /// The one page that shows a new webhook's signing secret (`ConsoleRoutes.reveal`).
    func created(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let id = request.parameter("id")
        return try routes.revealed(request, next: (href: "/console/webhooks/\(id)", text: messages[.webhookFormPageLink])) { kept in
            let secretBox = OneTimeSecret(label: messages[.webhookFormSecret], value: kept["secret"] ?? "", keepAdvice: "in the receiver's configuration",
                                          warning: messages[.webhookFormSecretWarning])
            let pageLink: HTML = "<a href=\"/console/webhooks/\(id)\">\(messages[.webhookFormPageLink])</a>"
            // No language link: following one would find the secret taken.
            return request.translatedPage(messages[.webhookFormAddedTitle],
                                          banner: NotificationBanner(.success, heading: messages(.webhookFormAddedBanner, ["url": kept["url"] ?? ""])),
                                          switcher: false, content: """
            <h1 class="heading-l">\(messages[.webhookFormAddedTitle])</h1>
            <p class="body">\(messages.html(.webhookFormSigns, ["standard": WebhookPages.standard(messages)]))</p>
            \(secretBox.render(messages))
            <p class="body">\(messages.html(.webhookFormGoToPage, ["link": pageLink]))</p>
            <p class="body"><a href="/console/webhooks">\(messages[.webhookFormBackToAll])</a></p>
            """)
        }
    }

    private func renderForm(_ request: ConsoleRequest, entry: Entry, issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        return request.translatedPage(messages[.webhooksAdd], issues: issues, backLink: BackLink(href: "/console/webhooks", text: messages[.webhooksCaption]),
                                      content: """
        <h1 class="heading-l">\(messages[.webhooksAdd])</h1>
        <p class="body">\(messages[.webhookFormShownOnce])</p>
        \(request.form("/console/webhooks/new", Self.fields(entry, issues: issues, askingEnabled: true, messages) + Button(messages[.webhookFormAddButton]).render()))
        """)
    }

    /// The form's questions: the address, the events, whether promotions wait for it and, on creation, whether it
    /// receives events at all (an existing receiver is enabled and disabled from its page).
    static func fields(_ entry: Entry, issues: [FieldIssue], askingEnabled: Bool, _ messages: Messages) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let events = WebhookEventType.subscribable.map { RadioGroup.Option($0.rawValue, WebhookWords.event($0, messages), hint: $0.rawValue) }
        return HTML.join([
            TextField(name: "url", label: messages[.webhooksUrl], hint: messages[.webhookFormUrlHint],
                      value: entry.url, issue: issue("url"), type: "url", autocomplete: "off", spellcheck: false).render(messages),
            CheckboxGroup(name: "events", legend: messages[.webhookFormWhichEvents], hint: messages[.webhookFormEventsHint],
                          options: events, selected: entry.events, issue: issue("events")).render(messages),
            RadioGroup(name: "required", legend: messages[.webhookFormShouldWait], hint: messages[.webhookFormShouldWaitHint],
                       options: [.init("true", messages[.webhooksRequiredYes]), .init("false", messages[.webhookFormOnlyTold])],
                       selected: entry.required, issue: issue("required")).render(messages),
            RadioGroup(name: "format", legend: messages[.webhookFormatsLegend], hint: messages[.webhookFormatsHint],
                       options: WebhookFormat.allCases.map { .init($0.rawValue, WebhookWords.format($0, messages)) },
                       selected: entry.format, issue: issue("format")).render(messages),
            TextField(name: "token_file", label: messages[.webhookFormatsTokenFile], hint: messages[.webhookFormatsTokenFileHint],
                      value: entry.tokenFile, issue: issue("token_file"), autocomplete: "off", spellcheck: false).render(messages),
            askingEnabled ? RadioGroup(name: "enabled", legend: messages[.webhookFormShouldReceive],
                                       options: [.init("true", messages[.webhookFormReceiveYes]), .init("false", messages[.webhookFormReceiveNo])],
                                       selected: entry.enabled, issue: issue("enabled")).render(messages) : .empty,
        ])
    }
}
