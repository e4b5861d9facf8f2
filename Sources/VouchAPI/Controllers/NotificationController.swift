import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/v1/notifications`: the outbox of notifications by email, for those who manage testers; never an address
/// (docs/notifications.md).
struct NotificationController {
    let notifications: NotificationService

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/notifications", .manageTesters, list)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let limit = try Paging.limit(from: request.query["limit"])
        var status: MailNotification.Status?
        if let text = request.query["status"] {
            guard let parsed = MailNotification.Status(rawValue: text) else {
                throw FieldError(field: "status", message: "'\(text)' is not a notification status; allowed: pending, sent, dead, cancelled")
            }
            status = parsed
        }
        let found = try notifications.notifications(status: status, after: Cursor.decode(request.query["cursor"]), limit: limit + 1,
                                                    for: context.principal)
        let page = Cursor.page(found, limit: limit) { $0.id }
        return .json(.object(["notifications": .array(page.items.map(NotificationController.json)), "next_cursor": .optional(page.next)]))
    }

    static func json(_ notification: MailNotification) -> JSONValue {
        .object([
            "id": .string(notification.id), "kind": .string(notification.kind.rawValue), "recipient": .string(notification.recipient),
            "language": .string(notification.language), "fix": .optional(notification.fixKey),
            "revision": notification.revision.map(JSONValue.int) ?? .null, "status": .string(notification.status.rawValue),
            "attempts": .int(notification.attempts), "next_attempt_at": .optional(notification.nextAttemptAt.map(Timestamp.string)),
            "last_error": .optional(notification.lastError), "created_at": .string(Timestamp.string(notification.createdAt)),
            "updated_at": .string(Timestamp.string(notification.updatedAt)),
        ])
    }
}
