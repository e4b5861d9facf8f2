import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices
import VouchJSON

/// "Add a webhook": the form, its problems, and the one page that shows the new webhook's signing secret.
extension WebhookPages {
    /// What the person entered, kept as typed so a page with problems shows it again.
    struct Entry {
        var url = ""
        var events: Set<String> = []
        var required = ""
        var enabled = ""

        init() {}

        init(_ request: ConsoleRequest) {
            url = request.field("url")
            events = Set(request.form.values("events"))
            required = request.field("required")
            enabled = request.field("enabled")
        }

        /// What the form must say before the service is asked: the radios have no default, so each needs an answer.
        var unanswered: [FieldIssue] {
            var issues: [FieldIssue] = []
            if url.isEmpty { issues.append(FieldIssue(field: "url", message: "Enter the webhook's URL, starting with https:// or http://")) }
            if !["true", "false"].contains(required) {
                issues.append(FieldIssue(field: "required", message: "Choose whether promotions wait for this webhook"))
            }
            if !["true", "false"].contains(enabled) {
                issues.append(FieldIssue(field: "enabled", message: "Choose whether this webhook receives events from now on"))
            }
            return issues
        }

        /// The new webhook's fields: the form's names are the API's, and an event name the service does not know is
        /// handed on for it to refuse.
        var fields: WebhookService.Fields {
            let chosen = WebhookEventType.subscribable.map(\.rawValue).filter(events.contains) + events.subtracting(WebhookEvent.types).sorted()
            return WebhookService.Fields(url: url, events: chosen, required: required == "true", enabled: enabled == "true")
        }
    }

    static let formIssues = FormFields([("url", "URL"), ("events", "Events"), ("required", "Required"), ("enabled", "Enabled")])

    func newForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        renderForm(request, entry: Entry(), issues: [])
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let entry = Entry(request)
        let unanswered = entry.unanswered
        guard unanswered.isEmpty else { return renderForm(request, entry: entry, issues: unanswered) }
        let endpoint: WebhookEndpoint
        switch try ServiceRefusal.attempt({ try services.webhooks.create(entry.fields, by: try request.signedIn) }) {
        case .success(let created): endpoint = created
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return renderForm(request, entry: entry, issues: Self.formIssues.issues(from: refusal.issues))
        }
        let (id, secret) = (endpoint.id, endpoint.secret)
        // The secret is in this answer only: it is shown here, never put in an address or kept for a later page.
        var response = request.page("Webhook added", banner: NotificationBanner(.success, heading: "The webhook to \(entry.url) is added"), content: """
        <h1 class="heading-l">Webhook added</h1>
        <p class="body">Vouch signs every request to it with this secret (Standard Webhooks): the receiver checks each request's webhook-signature header with it.</p>
        \(OneTimeSecret(label: "Signing secret", value: secret, keepAdvice: "in the receiver's configuration").render())
        <p class="body"><a href="/console/webhooks/\(id)">Go to the webhook's page</a>, to send it a test event.</p>
        <p class="body"><a href="/console/webhooks">Back to all webhooks</a></p>
        """)
        response.status = 201
        return response
    }

    private func renderForm(_ request: ConsoleRequest, entry: Entry, issues: [FieldIssue]) -> HTTPResponse {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let events = WebhookEventType.subscribable.map { RadioGroup.Option($0.rawValue, WebhookWords.event($0), hint: $0.rawValue) }
        let fields = [
            TextField(name: "url", label: "URL", hint: "Where Vouch sends its events, such as https://deploy.example.com/hooks/vouch.",
                      value: entry.url, issue: issue("url"), type: "url", autocomplete: "off", spellcheck: false).render(),
            CheckboxGroup(name: "events", legend: "Which events should it receive?", hint: "Choose none to receive every event, also kinds added later.",
                          options: events, selected: entry.events, issue: issue("events")).render(),
            RadioGroup(name: "required", legend: "Should promotions wait for it?",
                       hint: "A promoted fix is released only once every required webhook has answered with success.",
                       options: [.init("true", "Yes, a fix is released only once it answers with success"), .init("false", "No, it is only told")],
                       selected: entry.required, issue: issue("required")).render(),
            RadioGroup(name: "enabled", legend: "Should it receive events from now on?",
                       options: [.init("true", "Yes, send it events from now on"), .init("false", "No, add it disabled, to enable later")],
                       selected: entry.enabled, issue: issue("enabled")).render(),
            Button("Add the webhook").render(),
        ]
        return request.page("Add a webhook", issues: issues, backLink: BackLink(href: "/console/webhooks", text: "All webhooks"), content: """
        <h1 class="heading-l">Add a webhook</h1>
        <p class="body">Its signing secret is shown once, on the next page.</p>
        \(request.form("/console/webhooks/new", HTML.join(fields)))
        """)
    }
}
