import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore
import VouchWebhooks

/// `/v1/webhooks` and `/v1/deliveries`: receivers, their deliveries, tests and redelivery (admin only).
struct WebhookController {
    let store: any Store
    /// Resolves on the application's resolver threads, waiting at most `webhooks.dns_timeout` for a name.
    let addressPolicy: AddressPolicy
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/webhooks", .manageWebhooks, create)
        router.add("GET", "/v1/webhooks", .manageWebhooks, list)
        router.add("GET", "/v1/webhooks/{id}", .manageWebhooks, show)
        router.add("PATCH", "/v1/webhooks/{id}", .manageWebhooks, patch)
        router.add("DELETE", "/v1/webhooks/{id}", .manageWebhooks, delete)
        router.add("POST", "/v1/webhooks/{id}/test", .manageWebhooks, test)
        router.add("GET", "/v1/webhooks/{id}/deliveries", .manageWebhooks, deliveries)
        router.add("GET", "/v1/deliveries", .manageWebhooks, allDeliveries)
        router.add("POST", "/v1/deliveries/{id}/redeliver", .manageWebhooks, redeliver)
    }

    struct Fields {
        var url: String?
        var events: [WebhookEventType]?
        var required: Bool?
        var enabled: Bool?
    }

    func read(_ request: HTTPRequest, creating: Bool) throws -> Fields {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let url = reader.string("url")
        let eventNames = reader.stringList("events")
        var fields = Fields(url: url, events: nil, required: reader.bool("required"), enabled: reader.bool("enabled"))
        if creating && fields.url == nil { reader.addError(FieldError(field: "url", message: "is required: the receiver's http:// or https:// URL")) }
        if let url = fields.url {
            if let problem = AddressPolicy.checkForm(url) {
                reader.addError(FieldError(field: "url", message: problem))
            } else {
                do { _ = try addressPolicy.resolve(url) } catch {
                    // An overloaded resolver says nothing about the URL: the same request may pass in a moment.
                    if error.isBusy { throw Problem(status: 503, detail: error.description, headers: [(name: "Retry-After", value: "1")]) }
                    reader.addError(FieldError(field: "url", message: error.description))
                }
            }
        }
        if let eventNames {
            var chosen: [WebhookEventType] = []
            for (index, name) in eventNames.enumerated() {
                if let type = WebhookEventType(rawValue: name), WebhookEventType.subscribable.contains(type) {
                    chosen.append(type)
                } else {
                    reader.addError(FieldError(field: "events[\(index)]", message: "'\(name)' is not an event; allowed: \(WebhookEvent.types.joined(separator: ", "))"))
                }
            }
            fields.events = WebhookEventType.subscribable.filter(chosen.contains)
        }
        reader.refuse(["id", "secret", "created_at", "updated_at", "disabled_reason"], because: "is read-only; the server sets it")
        try reader.finish()
        return fields
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let fields = try read(request, creating: true)
        let time = clock()
        let endpoint = WebhookEndpoint(id: "we_" + SecureRandom.alphanumeric(count: 16), url: fields.url!, events: fields.events ?? [],
                                       required: fields.required ?? false, secret: WebhookSigner.makeSecret(), enabled: fields.enabled ?? true,
                                       createdBy: context.principal.name, createdAt: time, updatedAt: time)
        try store.createEndpoint(endpoint, by: context.requester)
        var body = WebhookController.json(endpoint)
        // The only time the secret is shown.
        body["secret"] = .string(endpoint.secret)
        return .json(.object(body), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try Cursor.listAnswer(request, name: "webhooks", key: \.id, json: { .object(WebhookController.json($0)) }, fetch: store.endpoints)
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        guard let endpoint = try store.endpoint(id) else { throw StoreError.notFound(kind: "webhook", id: id) }
        return .json(.object(WebhookController.json(endpoint)))
    }

    func patch(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let fields = try read(request, creating: false)
        let time = clock()
        let endpoint = try store.updateEndpoint(context.parameters["id"], by: context.requester) { endpoint in
            var next = endpoint
            if let url = fields.url { next.url = url }
            if let events = fields.events { next.events = events }
            if let required = fields.required { next.required = required }
            if let enabled = fields.enabled {
                next.enabled = enabled
                if enabled { next.disabledReason = nil }
            }
            if next != endpoint { next.updatedAt = time }
            return next
        }
        return .json(.object(WebhookController.json(endpoint)))
    }

    func delete(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try store.deleteEndpoint(context.parameters["id"], by: context.requester, at: clock())
        return .empty(204)
    }

    /// Sends a `webhook.test`-style ping through the normal outbox, so it is signed and retried like any event.
    func test(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        guard let endpoint = try store.endpoint(id) else { throw StoreError.notFound(kind: "webhook", id: id) }
        guard endpoint.enabled else { throw StoreConflict("webhook \(id) is disabled (\(endpoint.disabledReason ?? "by hand")); enable it first") }
        let time = clock()
        let body: JSONValue = .object(["type": .string(WebhookEventType.webhookTest.rawValue), "timestamp": .string(Timestamp.string(time)),
                                       "data": .object(["webhook": .string(id), "requested_by": .string(context.principal.name)])])
        let event = WebhookEvent(id: "msg_" + SecureRandom.alphanumeric(count: 24), type: .webhookTest, fixKey: nil, revision: nil,
                                 body: JSONWriter.bytes(body), createdAt: time)
        let deliveries = try store.enqueue([event], onlyTo: id, by: context.requester)
        return .json(.object(["event": .string(event.id), "deliveries": .strings(deliveries)]), status: 202)
    }

    func deliveries(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        guard try store.endpoint(id) != nil else { throw StoreError.notFound(kind: "webhook", id: id) }
        return try listDeliveries(request, endpoint: id)
    }

    func allDeliveries(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try listDeliveries(request, endpoint: request.query["webhook"])
    }

    private func listDeliveries(_ request: HTTPRequest, endpoint: String?) throws -> HTTPResponse {
        let limit = try Paging.limit(from: request.query["limit"])
        var status: WebhookDelivery.Status?
        if let text = request.query["status"] {
            guard let parsed = WebhookDelivery.Status(rawValue: text) else {
                throw FieldError(field: "status", message: "'\(text)' is not a delivery status; allowed: pending, succeeded, dead, cancelled")
            }
            status = parsed
        }
        let found = try store.deliveries(endpoint: endpoint, status: status, after: Cursor.decode(request.query["cursor"]), limit: limit + 1)
        let page = Cursor.page(found, limit: limit) { $0.id }
        return .json(.object(["deliveries": .array(page.items.map(WebhookController.json)), "next_cursor": .optional(page.next)]))
    }

    func redeliver(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let delivery = try store.redeliver(context.parameters["id"], by: context.requester, at: clock())
        return .json(WebhookController.json(delivery))
    }

    /// An endpoint as the API shows it: never the secret after creation.
    static func json(_ endpoint: WebhookEndpoint) -> JSONObject {
        ["id": .string(endpoint.id), "url": .string(endpoint.url), "events": .strings(endpoint.events.map(\.rawValue)), "required": .bool(endpoint.required),
         "enabled": .bool(endpoint.enabled), "disabled_reason": .optional(endpoint.disabledReason), "created_by": .string(endpoint.createdBy),
         "created_at": .string(Timestamp.string(endpoint.createdAt)), "updated_at": .string(Timestamp.string(endpoint.updatedAt))]
    }

    static func json(_ delivery: WebhookDelivery) -> JSONValue {
        .object([
            "id": .string(delivery.id), "event": .string(delivery.eventID), "type": .string(delivery.eventType.rawValue), "webhook": .string(delivery.endpointID),
            "status": .string(delivery.status.rawValue), "required": .bool(delivery.required), "attempts": .int(delivery.attempts),
            "next_attempt_at": .optional(delivery.nextAttemptAt.map(Timestamp.string)), "last_status_code": delivery.lastStatusCode.map(JSONValue.int) ?? .null,
            "last_error": .optional(delivery.lastError), "created_at": .string(Timestamp.string(delivery.createdAt)),
            "updated_at": .string(Timestamp.string(delivery.updatedAt)),
        ])
    }
}
