import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServices

/// What an administrator does to a webhook from its page: each change through the webhook service, then back to the page with a
/// success banner (Post/Redirect/Get). Disabling and deleting first say what they stop, on a page of their own.
extension WebhookPages {
    func sendTest(_ request: ConsoleRequest) throws -> HTTPResponse {
        try change(request, done: "tested") { id, principal in _ = try services.webhooks.sendTest(to: id, by: principal) }
    }

    func enable(_ request: ConsoleRequest) throws -> HTTPResponse {
        try change(request, done: "enabled") { id, principal in _ = try services.webhooks.update(id, with: .init(enabled: true), by: principal) }
    }

    func disable(_ request: ConsoleRequest) throws -> HTTPResponse {
        try change(request, done: "disabled") { id, principal in _ = try services.webhooks.update(id, with: .init(enabled: false), by: principal) }
    }

    func confirmDisable(_ request: ConsoleRequest) throws -> HTTPResponse {
        let endpoint = try endpoint(request)
        let messages = request.messages
        return confirmation(request, endpoint, question: .webhookActionDisableQuestion, button: .webhookActionDisableButton, action: "disable",
                            consequences: [messages[.webhookActionDisableNoEvents], messages[.webhookActionCancelled]]
                                + (endpoint.required ? [messages[.webhookActionDisableRequired]] : []))
    }

    func confirmDelete(_ request: ConsoleRequest) throws -> HTTPResponse {
        let endpoint = try endpoint(request)
        let messages = request.messages
        return confirmation(request, endpoint, question: .webhookActionDeleteQuestion, button: .webhookActionDeleteButton, action: "delete",
                            consequences: [messages[.webhookActionDeleteNoMore], messages[.webhookActionDeleteCancelled]]
                                + (endpoint.required ? [messages[.webhookActionDeleteRequired]] : []))
    }

    func delete(_ request: ConsoleRequest) throws -> HTTPResponse {
        _ = try change(request, done: "deleted") { id, principal in try services.webhooks.delete(id, by: principal) }
        return .seeOther("/console/webhooks?done=deleted")
    }

    /// The delivery says which webhook it belongs to; the answer returns to that webhook's page.
    func redeliver(_ request: ConsoleRequest) throws -> HTTPResponse {
        let delivery = try services.webhooks.redeliver(request.parameter("delivery"), by: try request.signedIn)
        return .seeOther("/console/webhooks/\(ConsoleRoutes.percentEncoded(delivery.endpointID))?done=redelivered")
    }

    /// A confirmation page: what the action stops, in words, then the button that does it.
    private func confirmation(_ request: ConsoleRequest, _ endpoint: WebhookEndpoint, question: MessageKey, button: MessageKey, action: String,
                              consequences: [String]) -> HTTPResponse {
        let messages = request.messages
        let path = "/console/webhooks/\(endpoint.id)"
        let items = consequences.map { item -> HTML in "<li>\(item)</li>" }
        let title = messages(question, ["url": endpoint.url])
        return request.translatedPage(title, backLink: BackLink(href: path, text: messages[.webhookActionBack]), content: """
        <h1 class="heading-l">\(title)</h1>
        <ul class="list">\(items)</ul>
        \(request.form(path + "/" + action, "<div class=\"button-group\">" + Button(messages[button], kind: .warning).render()
                       + "<a href=\"\(path)\">\(messages[.webhookActionCancel])<span class=\"visually-hidden\">\(messages[.webhookActionKeep])</span></a></div>"))
        """)
    }

    /// Makes `change` to the route's webhook as the signed-in person, then returns to its page with the banner `done`
    /// chooses; a refusal becomes the console's error page.
    private func change(_ request: ConsoleRequest, done: String, _ change: (_ id: String, Principal) throws -> Void) throws -> HTTPResponse {
        let endpoint = try endpoint(request)
        try change(endpoint.id, try request.signedIn)
        return .seeOther("/console/webhooks/\(endpoint.id)?done=\(done)")
    }
}
