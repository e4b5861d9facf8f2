import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// `/console/webhooks`: the receivers of Vouch's events, one page each with its deliveries, and the forms that add,
/// test, enable, disable and delete them (administrators only, as in the API).
struct WebhookPages {
    let routes: ConsoleRoutes
    let store: any Store
    let services: Services

    static let access = ConsoleAccess.permission(.manageWebhooks)

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/webhooks", Self.access, list)
        routes.get(&router, "/console/webhooks/new", Self.access, newForm)
        routes.post(&router, "/console/webhooks/new", Self.access, create)
        routes.get(&router, "/console/webhooks/{id}/created", Self.access, created)
        routes.get(&router, "/console/webhooks/{id}", Self.access, details)
        routes.form(&router, "/console/webhooks/{id}/edit", Self.access, show: editForm, submit: edit)
        routes.post(&router, "/console/webhooks/{id}/test", Self.access, sendTest)
        routes.post(&router, "/console/webhooks/{id}/enable", Self.access, enable)
        routes.get(&router, "/console/webhooks/{id}/disable", Self.access, confirmDisable)
        routes.post(&router, "/console/webhooks/{id}/disable", Self.access, disable)
        routes.get(&router, "/console/webhooks/{id}/delete", Self.access, confirmDelete)
        routes.post(&router, "/console/webhooks/{id}/delete", Self.access, delete)
        routes.post(&router, "/console/webhooks/{id}/deliveries/{delivery}/redeliver", Self.access, redeliver)
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let page = try AdminPages.page(request, key: \.id, fetch: store.endpoints)
        let rows = page.items.map { endpoint -> [HTML] in
            ["<a href=\"/console/webhooks/\(endpoint.id)\">\(endpoint.url)<span class=\"visually-hidden\">\(messages[.webhooksDetails])</span></a>"
                + "<br><span class=\"hint\">\(WebhookWords.format(endpoint.format, messages))</span>",
             "\(WebhookWords.events(endpoint.events, messages))", "\(messages[endpoint.required ? .webhooksYes : .webhooksNo])",
             WebhookWords.enabledTag(endpoint, messages).render()]
        }
        let table = DataTable(caption: messages[.webhooksCaption],
                              columns: [messages[.webhooksUrl], messages[.webhooksEvents], messages[.webhooksRequired], messages[.webhooksStatus]],
                              rows: rows, emptyText: messages[.webhooksEmpty])
        let banner: NotificationBanner? = request.http.query["done"] == "deleted" ? NotificationBanner(.success, heading: messages[.webhooksDeletedBanner]) : nil
        return request.translatedPage(messages[.webhooksTitle], banner: banner, content: """
        <h1 class="heading-l">\(messages[.webhooksTitle])</h1>
        <p class="body">\(messages.html(.webhooksIntro, ["standard": WebhookPages.standard(messages)]))</p>
        <p class="body"><a href="/console/webhooks/new" class="button">\(messages[.webhooksAdd])</a></p>
        \(table.render())
        \(AdminPages.nextPageLink("/console/webhooks", cursor: page.next, subject: "webhooks", next: messages[.tokensNextPage], hidden: messages[.webhooksOfWebhooks]))
        """)
    }

    func details(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let endpoint = try endpoint(request)
        let status = WebhookDelivery.Status(rawValue: request.http.query["status"] ?? "")
        let deliveries = try AdminPages.page(request, key: \.id) { try store.deliveries(endpoint: endpoint.id, status: status, after: $0, limit: $1) }
        let table = WebhookDeliveryTable(endpoint: endpoint, deliveries: deliveries.items, status: status, csrf: request.csrf, messages: messages)
        let path = "/console/webhooks/\(endpoint.id)"
        let title = messages(.webhooksPageTitle, ["url": endpoint.url])
        return request.translatedPage(title, backLink: BackLink(href: "/console/webhooks", text: messages[.webhooksCaption]),
                                      banner: Self.banner(for: request.http.query["done"], messages), content: """
        <h1 class="heading-l">\(title)</h1>
        \(SummaryList(summary(of: endpoint, messages)).render(messages))
        <h2 class="heading-m">\(messages[.webhooksActions])</h2>
        \(actions(for: endpoint, request: request))
        \(table.render())
        \(AdminPages.nextPageLink(path, cursor: deliveries.next, keeping: status.map { [("status", $0.rawValue)] } ?? [], subject: "deliveries",
                                  next: messages[.tokensNextPage], hidden: messages[.webhooksOfDeliveries]))
        """)
    }

    private func summary(of endpoint: WebhookEndpoint, _ messages: Messages) -> [SummaryList.Row] {
        let events: HTML = endpoint.events.isEmpty ? "\(messages[.webhooksEveryEventLater])"
            : "<ul class=\"list\">\(endpoint.events.map { type -> HTML in "<li>\(WebhookWords.event(type, messages)) (\(type.rawValue))</li>" })</ul>"
        var status = WebhookWords.enabledTag(endpoint, messages).render()
        if let reason = endpoint.disabledReason, !endpoint.enabled { status = status + " " + messages.authored(reason, language: Language.en.rawValue) }
        return [
            SummaryList.Row(messages[.webhooksUrl], text: endpoint.url),
            SummaryList.Row(messages[.webhooksEventsItReceives], events),
            SummaryList.Row(messages[.webhooksPromotionsWait], text: WebhookWords.required(endpoint.required, messages)),
            SummaryList.Row(messages[.webhooksStatus], status),
            SummaryList.Row(messages[.webhooksAdded], messages.html(.webhooksAddedBy, ["name": "\(endpoint.createdBy)",
                                                                                      "date": messages.staffTimeElement(endpoint.createdAt)])),
            SummaryList.Row(messages[.tokensId], text: endpoint.id),
        ]
    }

    /// What may be done now: changing it, a test and disabling while it is enabled, enabling while it is not, and deleting.
    private func actions(for endpoint: WebhookEndpoint, request: ConsoleRequest) -> HTML {
        let messages = request.messages
        let path = "/console/webhooks/\(endpoint.id)"
        let toggle: HTML = endpoint.enabled
            ? """
            \(request.form(path + "/test", "<p class=\"body\">\(messages[.webhooksTestText])</p>" + Button(messages[.webhooksSendTest], kind: .secondary).render()))
            <p class="body"><a href="\(path)/disable">\(messages[.webhooksDisableLink])</a></p>
            """
            : request.form(path + "/enable", "<p class=\"body\">\(messages[.webhooksDisabledText])</p>" + Button(messages[.webhooksEnableButton]).render())
        return "<p class=\"body\"><a href=\"\(path)/edit\">\(messages[.webhookEditLink])</a></p>" + toggle
            + "<p class=\"body\"><a href=\"\(path)/delete\">\(messages[.webhooksDeleteLink])</a></p>"
    }

    /// The specification's name, which is English in every language.
    static func standard(_ messages: Messages) -> HTML { messages.authored("Standard Webhooks", language: Language.en.rawValue) }

    /// The success banner after a change, chosen by the `done` flag of the address it was sent to.
    static func banner(for done: String?, _ messages: Messages) -> NotificationBanner? {
        let heading: MessageKey? = switch done {
        case "tested": .webhooksTested
        case "edited": .webhookEditEdited
        case "enabled": .webhooksEnabled
        case "disabled": .webhooksDisabled
        case "redelivered": .webhooksRedelivered
        default: nil
        }
        return heading.map { NotificationBanner(.success, heading: messages[$0]) }
    }

    /// The endpoint the route names; a deleted or unknown one is a 404.
    func endpoint(_ request: ConsoleRequest) throws -> WebhookEndpoint {
        let id = request.parameter("id")
        guard let endpoint = try store.endpoint(id) else { throw StoreError.notFound(kind: "webhook", id: id) }
        return endpoint
    }
}
