import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices

/// "Change a webhook": its address, its events, whether promotions wait for it and its format, as the API's
/// `PATCH /v1/webhooks/{id}` changes them (`/console/webhooks/{id}/edit`). Its signing secret stays.
extension WebhookPages {
    func editForm(_ request: ConsoleRequest) throws -> HTTPResponse {
        let endpoint = try services.webhooks.endpoint(request.parameter("id"), for: try request.signedIn)
        return renderEdit(request, endpoint: endpoint, entry: Entry(endpoint), issues: [])
    }

    func edit(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let endpoint = try services.webhooks.endpoint(request.parameter("id"), for: try request.signedIn)
        var entry = Entry(request)
        entry.enabled = endpoint.enabled ? "true" : "false"
        let unanswered = entry.unanswered(messages)
        guard unanswered.isEmpty else { return renderEdit(request, endpoint: endpoint, entry: entry, issues: unanswered) }
        let fields = entry.fields
        // The format as chosen; a token file left empty keeps the stored one, or goes with a format that reads none.
        let change = WebhookService.Fields(url: fields.url, events: fields.events, required: fields.required, format: fields.format,
                                           tokenFile: fields.tokenFile)
        switch try ServiceRefusal.attempt({ try services.webhooks.update(endpoint.id, with: change, by: try request.signedIn) }) {
        case .success: return .seeOther("/console/webhooks/\(endpoint.id)?done=edited")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return renderEdit(request, endpoint: endpoint, entry: entry, issues: Self.formIssues(messages).issues(from: refusal.issues, messages: messages))
        }
    }

    private func renderEdit(_ request: ConsoleRequest, endpoint: WebhookEndpoint, entry: Entry, issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        let title = messages(.webhookEditTitle, ["url": endpoint.url])
        let path = "/console/webhooks/\(endpoint.id)"
        return request.translatedPage(title, issues: issues, backLink: BackLink(href: path, text: messages[.webhookFormPageLink]), content: """
        <h1 class="heading-l">\(title)</h1>
        <p class="body">\(messages[.webhookEditIntro])</p>
        \(request.form(path + "/edit", Self.fields(entry, issues: issues, askingEnabled: false, messages) + Button(messages[.webhookEditSave]).render()))
        """)
    }
}
