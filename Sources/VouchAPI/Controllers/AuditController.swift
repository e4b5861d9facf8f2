import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/audit`: every mutation, oldest first, optionally narrowed by fix, action, principal and time.
struct AuditController {
    let audit: AuditService

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/audit", .readAll, list)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let limit = try Paging.limit(from: request.query["limit"])
        var after: Int64?
        if let cursor = try Cursor.decode(request.query["cursor"]) {
            guard let id = Int64(cursor) else {
                throw FieldError(field: "cursor", message: "must be a next_cursor value from a previous page")
            }
            after = id
        }
        let query = request.query
        let filter = try AuditService.filter(fix: query["fix"], action: query["action"], principal: query["principal"], since: query["since"],
                                             until: query["until"])
        let events = try audit.events(matching: filter, after: after, limit: limit + 1, for: context.principal)
        let page = Cursor.page(events, limit: limit) { String($0.id) }
        return .json(.object(["events": .array(page.items.map(AuditController.json)), "next_cursor": .optional(page.next)]))
    }

    static func json(_ event: AuditEvent) -> JSONValue {
        func parsed(_ text: String?) -> JSONValue {
            guard let text, let value = try? JSONParser.parse(text) else { return .null }
            return value
        }
        return .object([
            "id": .number(Double(event.id)), "at": .string(Timestamp.string(event.at)), "principal": .string(event.principal),
            "action": .string(event.action.rawValue), "fix": .optional(event.fixKey), "subject": .optional(event.subject),
            "note": .optional(event.note), "before": parsed(event.before), "after": parsed(event.after), "via": .optional(event.via),
        ])
    }
}
