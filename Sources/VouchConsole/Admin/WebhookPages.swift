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
        routes.get(&router, "/console/webhooks/{id}", Self.access, details)
        routes.post(&router, "/console/webhooks/{id}/test", Self.access, sendTest)
        routes.post(&router, "/console/webhooks/{id}/enable", Self.access, enable)
        routes.get(&router, "/console/webhooks/{id}/disable", Self.access, confirmDisable)
        routes.post(&router, "/console/webhooks/{id}/disable", Self.access, disable)
        routes.get(&router, "/console/webhooks/{id}/delete", Self.access, confirmDelete)
        routes.post(&router, "/console/webhooks/{id}/delete", Self.access, delete)
        routes.post(&router, "/console/webhooks/{id}/deliveries/{delivery}/redeliver", Self.access, redeliver)
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        let page = try AdminPages.page(request, key: \.id, fetch: store.endpoints)
        let rows = page.items.map { endpoint -> [HTML] in
            ["<a href=\"/console/webhooks/\(endpoint.id)\">\(endpoint.url)<span class=\"visually-hidden\">, webhook details</span></a>",
             "\(WebhookWords.events(endpoint.events))", endpoint.required ? "Yes" : "No", WebhookWords.enabledTag(endpoint).render()]
        }
        let table = DataTable(caption: "All webhooks", columns: ["URL", "Events", "Required", "Status"], rows: rows,
                              emptyText: "No webhook yet: nothing receives Vouch's events, and a promoted fix is released at once.")
        let banner: NotificationBanner? = request.http.query["done"] == "deleted" ? NotificationBanner(.success, heading: "The webhook is deleted") : nil
        return request.page("Webhooks", banner: banner, content: """
        <h1 class="heading-l">Webhooks</h1>
        <p class="body">A webhook is an address that receives Vouch's events as signed requests (Standard Webhooks). When a fix is promoted, it is released once every required webhook has answered with success.</p>
        <p class="body"><a href="/console/webhooks/new" class="button">Add a webhook</a></p>
        \(table.render())
        \(AdminPages.nextPageLink("/console/webhooks", cursor: page.next, subject: "webhooks"))
        """)
    }

    func details(_ request: ConsoleRequest) throws -> HTTPResponse {
        let endpoint = try endpoint(request)
        let status = WebhookDelivery.Status(rawValue: request.http.query["status"] ?? "")
        let deliveries = try AdminPages.page(request, key: \.id) { try store.deliveries(endpoint: endpoint.id, status: status, after: $0, limit: $1) }
        let table = WebhookDeliveryTable(endpoint: endpoint, deliveries: deliveries.items, status: status, csrf: request.csrf)
        let path = "/console/webhooks/\(endpoint.id)"
        return request.page("Webhook to \(endpoint.url)", backLink: BackLink(href: "/console/webhooks", text: "All webhooks"),
                            banner: Self.banner(for: request.http.query["done"]), content: """
        <h1 class="heading-l">Webhook to \(endpoint.url)</h1>
        \(SummaryList(summary(of: endpoint)).render())
        <h2 class="heading-m">Actions</h2>
        \(actions(for: endpoint, request: request))
        \(table.render())
        \(AdminPages.nextPageLink(path, cursor: deliveries.next, keeping: status.map { [("status", $0.rawValue)] } ?? [], subject: "deliveries"))
        """)
    }

    private func summary(of endpoint: WebhookEndpoint) -> [SummaryList.Row] {
        let events: HTML = endpoint.events.isEmpty ? "Every event, also kinds added later"
            : "<ul class=\"list\">\(endpoint.events.map { type -> HTML in "<li>\(WebhookWords.event(type)) (\(type.rawValue))</li>" })</ul>"
        var status = WebhookWords.enabledTag(endpoint).render()
        if let reason = endpoint.disabledReason, !endpoint.enabled { status = status + " \(reason)" }
        return [
            SummaryList.Row("URL", text: endpoint.url),
            SummaryList.Row("Events it receives", events),
            SummaryList.Row("Promotions wait for it", text: WebhookWords.required(endpoint.required)),
            SummaryList.Row("Status", status),
            SummaryList.Row("Added", "by \(endpoint.createdBy) on \(Words.timeElement(endpoint.createdAt))"),
            SummaryList.Row("Id", text: endpoint.id),
        ]
    }

    /// What may be done now: a test and disabling while it is enabled, enabling while it is not, and deleting.
    private func actions(for endpoint: WebhookEndpoint, request: ConsoleRequest) -> HTML {
        let path = "/console/webhooks/\(endpoint.id)"
        let toggle: HTML = endpoint.enabled
            ? """
            \(request.form(path + "/test", "<p class=\"body\">A test event (webhook.test) goes to this webhook only, signed and retried like any other event.</p>" + Button("Send a test event", kind: .secondary).render()))
            <p class="body"><a href="\(path)/disable">Disable this webhook</a></p>
            """
            : request.form(path + "/enable", "<p class=\"body\">While it is disabled, it receives no events.</p>" + Button("Enable this webhook").render())
        return toggle + "<p class=\"body\"><a href=\"\(path)/delete\">Delete this webhook</a></p>"
    }

    /// The success banner after a change, chosen by the `done` flag of the address it was sent to.
    static func banner(for done: String?) -> NotificationBanner? {
        let heading: String? = switch done {
        case "tested": "A test event is on its way: its delivery is in the table below"
        case "enabled": "The webhook is enabled: it receives events from now on"
        case "disabled": "The webhook is disabled: it receives no events until it is enabled again"
        case "redelivered": "The delivery is queued again, with its retries anew"
        default: nil
        }
        return heading.map { NotificationBanner(.success, heading: $0) }
    }

    /// The endpoint the route names; a deleted or unknown one is a 404.
    func endpoint(_ request: ConsoleRequest) throws -> WebhookEndpoint {
        let id = request.parameter("id")
        guard let endpoint = try store.endpoint(id) else { throw StoreError.notFound(kind: "webhook", id: id) }
        return endpoint
    }
}
