import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/webhooks` and `/v1/deliveries`: receivers, their deliveries, tests and redelivery (admin only).
struct WebhookController {
    let webhooks: WebhookService

    package func register(in router: inout APIRouter) {
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

    /// The body's fields, and what reading them found wrong.
    static func read(_ request: HTTPRequest) throws -> (WebhookService.Fields, [FieldError]) {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let fields = WebhookService.Fields(url: reader.string("url"), events: reader.stringList("events"), required: reader.bool("required"),
                                           enabled: reader.bool("enabled"), format: reader.string("format"), tokenFile: reader.nullableString("token_file"))
        reader.refuse(["id", "secret", "created_at", "updated_at", "disabled_reason"], because: "is read-only; the server sets it")
        return (fields, reader.problems)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (fields, readErrors) = try WebhookController.read(request)
        let endpoint = try webhooks.create(fields, readErrors: readErrors, by: context.principal)
        var body = WebhookController.json(endpoint)
        // The only time the secret is shown.
        body["secret"] = .string(endpoint.secret)
        return .json(.object(body), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try Cursor.listAnswer(request, name: "webhooks", key: \.id, json: { .object(WebhookController.json($0)) }) {
            try webhooks.endpoints(after: $0, limit: $1, for: context.principal)
        }
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(WebhookController.json(try webhooks.endpoint(context.parameters["id"], for: context.principal))))
    }

    func patch(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (fields, readErrors) = try WebhookController.read(request)
        let endpoint = try webhooks.update(context.parameters["id"], with: fields, readErrors: readErrors, by: context.principal)
        return .json(.object(WebhookController.json(endpoint)))
    }

    func delete(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try webhooks.delete(context.parameters["id"], by: context.principal)
        return .empty(204)
    }

    /// Sends a `webhook.test`-style ping through the normal outbox, so it is signed and retried like any event.
    func test(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let sent = try webhooks.sendTest(to: context.parameters["id"], by: context.principal)
        return .json(.object(["event": .string(sent.event), "deliveries": .strings(sent.deliveries)]), status: 202)
    }

    func deliveries(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = try webhooks.endpoint(context.parameters["id"], for: context.principal).id
        return try listDeliveries(request, context, endpoint: id)
    }

    func allDeliveries(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try listDeliveries(request, context, endpoint: request.query["webhook"])
    }

    private func listDeliveries(_ request: HTTPRequest, _ context: RequestContext, endpoint: String?) throws -> HTTPResponse {
        let limit = try Paging.limit(from: request.query["limit"])
        var status: WebhookDelivery.Status?
        if let text = request.query["status"] {
            guard let parsed = WebhookDelivery.Status(rawValue: text) else {
                throw FieldError(field: "status", message: "'\(text)' is not a delivery status; allowed: pending, succeeded, dead, cancelled")
            }
            status = parsed
        }
        let found = try webhooks.deliveries(endpoint: endpoint, status: status, after: Cursor.decode(request.query["cursor"]), limit: limit + 1,
                                            for: context.principal)
        let page = Cursor.page(found, limit: limit) { $0.id }
        return .json(.object(["deliveries": .array(page.items.map(WebhookController.json)), "next_cursor": .optional(page.next)]))
    }

    func redeliver(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(WebhookController.json(try webhooks.redeliver(context.parameters["id"], by: context.principal)))
    }

    /// An endpoint as the API shows it: never the secret after creation.
    static func json(_ endpoint: WebhookEndpoint) -> JSONObject {
        ["id": .string(endpoint.id), "url": .string(endpoint.url), "events": .strings(endpoint.events.map(\.rawValue)), "required": .bool(endpoint.required),
         "enabled": .bool(endpoint.enabled), "disabled_reason": .optional(endpoint.disabledReason), "format": .string(endpoint.format.rawValue),
         "token_file": .optional(endpoint.tokenFile), "created_by": .string(endpoint.createdBy),
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
