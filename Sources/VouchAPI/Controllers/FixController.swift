import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/v1/fixes`: create, list, show, patch, and the lifecycle actions.
struct FixController {
    let fixes: FixService

    /// The actions people may ask for.
    static let servedActions = FixAction.commands

    package func register(in router: inout APIRouter) {
        router.add("POST", "/v1/fixes", .editFixes, create)
        router.add("GET", "/v1/fixes", anyOf: [.readAll, .readEnrolledFixes], list)
        router.add("GET", "/v1/fixes/{key}", anyOf: [.readAll, .readEnrolledFixes], show)
        router.add("PATCH", "/v1/fixes/{key}", .editFixes, patch)
        router.add("POST", "/v1/fixes/{key}/{action}", .evaluateFlags, act)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (draft, readErrors) = FixDraft.read(try RequestBody.json(request))
        let created = try fixes.create(draft, readErrors: readErrors, by: context.principal)
        return .json(created.jsonValue, status: 201, headers: [(name: "Location", value: "/v1/fixes/\(created.key.rawValue)")])
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let limit = try Paging.limit(from: request.query["limit"])
        var state: FixState?
        if let text = request.query["state"] {
            guard let parsed = FixState(rawValue: text) else {
                throw FieldError(field: "state", message: "'\(text)' is not a state; allowed: \(FixState.allowedList)")
            }
            state = parsed
        }
        let found = try fixes.fixes(state: state, after: try Cursor.decode(request.query["cursor"]), limit: limit + 1, for: context.principal)
        let page = Cursor.page(found, limit: limit) { $0.key.rawValue }
        return .json(.object(["fixes": .array(page.items.map(\.jsonValue)), "next_cursor": .optional(page.next)]))
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(try fixes.fix(context.parameters["key"], for: context.principal).jsonValue)
    }

    func patch(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (draft, readErrors) = FixDraft.read(try RequestBody.json(request))
        return .json(try fixes.update(context.parameters["key"], with: draft, readErrors: readErrors, by: context.principal).jsonValue)
    }

    func act(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let name = context.parameters["action"]
        guard let action = FixAction(rawValue: name), FixController.servedActions.contains(action) else {
            let allowed = FixController.servedActions.map(\.rawValue).joined(separator: ", ")
            throw Problem(status: 404, detail: "'\(name)' is not a fix action this server performs; allowed: \(allowed)")
        }
        // Who may is said before anything about the body.
        try FixService.authorize(action, for: context.principal)
        let (note, readErrors) = FixController.note(for: action, in: try RequestBody.object(request, emptyAllowed: true))
        let change = try fixes.perform(action, on: context.parameters["key"], note: note, readErrors: readErrors, by: context.principal)
        return .json(change.after.jsonValue)
    }

    /// `revise` takes `{"note"}` and `rollback` `{"reason"}`; the other actions take an empty body or `{}`.
    static func note(for action: FixAction, in body: JSONObject) -> (note: String?, problems: [FieldError]) {
        var reader = JSONFieldReader(object: body)
        var note: String?
        switch action {
        case .revise: note = reader.string("note")
        case .rollback: note = reader.string("reason")
        default: break
        }
        return (note, reader.problems)
    }
}
