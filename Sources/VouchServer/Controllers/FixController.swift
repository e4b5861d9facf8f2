import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore

/// `/v1/fixes`: create, list, show, patch, and the lifecycle actions.
struct FixController {
    let store: any Store
    let promotion: PromotionService
    let clock: @Sendable () -> Date

    /// The actions people may ask for.
    static let servedActions = FixAction.commands

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/fixes", .editFixes, create)
        router.add("GET", "/v1/fixes", anyOf: [.readAll, .readEnrolledFixes], list)
        router.add("GET", "/v1/fixes/{key}", anyOf: [.readAll, .readEnrolledFixes], show)
        router.add("PATCH", "/v1/fixes/{key}", .editFixes, patch)
        router.add("POST", "/v1/fixes/{key}/{action}", .evaluateFlags, act)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (draft, readErrors) = FixDraft.read(try RequestBody.json(request))
        let fix = try FixValidator.makeFix(from: draft, author: context.principal.name, at: clock(), priorErrors: readErrors)
        let created = try store.createFix(fix, by: context.requester,
                                          emitting: [WebhookEventFactory.make(.fixCreated, fix: fix, evidence: nil, at: fix.createdAt)])
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
        let after = try Cursor.decode(request.query["cursor"])
        var fixes = try store.fixes(state: state, after: after, limit: limit + 1)
        if context.principal.role == .tester {
            // A tester sees only the fixes they are enrolled in; a tester has few, so filtering here is cheap.
            let enrolled = try store.enrolledFixes(of: context.principal.testerID ?? "").filter { $0 > (after ?? "") }
            fixes = try enrolled.compactMap { try store.fix($0) }.filter { state == nil || $0.state == state }
        }
        let page = Cursor.page(fixes, limit: limit) { $0.key.rawValue }
        return .json(.object(["fixes": .array(page.items.map(\.jsonValue)), "next_cursor": .optional(page.next)]))
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        try TesterScope(store: store).requireFixAccess(context.principal, fixKey: key)
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        return .json(fix.jsonValue)
    }

    func patch(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (draft, readErrors) = FixDraft.read(try RequestBody.json(request))
        let time = clock()
        // Refuse a bad body before touching the store, so a missing fix and a bad field are told apart.
        if !readErrors.isEmpty { throw ValidationFailure(readErrors) }
        let change = try store.updateFix(context.parameters["key"], action: .fixUpdate, by: context.requester, note: nil) { fix in
            try FixValidator.applyPatch(draft, to: fix, at: time)
        }
        return .json(change.after.jsonValue)
    }

    func act(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let name = context.parameters["action"]
        guard let action = FixAction(rawValue: name), FixController.servedActions.contains(action) else {
            let allowed = FixController.servedActions.map(\.rawValue).joined(separator: ", ")
            throw Problem(status: 404, detail: "'\(name)' is not a fix action this server performs; allowed: \(allowed)")
        }
        guard context.principal.allows(action.requiredPermission) else {
            throw Problem(status: 403, detail: "the role \(context.principal.role.rawValue) may not \(action.rawValue) a fix; it needs a role that can \(action.requiredPermission.phrase)")
        }
        let note = try FixController.note(for: action, in: RequestBody.object(request, emptyAllowed: true))
        let change = try promotion.perform(action, on: context.parameters["key"], by: context.principal, note: note)
        return .json(change.after.jsonValue)
    }

    /// `revise` takes `{"note"}` and `rollback` `{"reason"}`; the other actions take an empty body or `{}`.
    static func note(for action: FixAction, in body: JSONObject) throws -> String? {
        var reader = JSONFieldReader(object: body)
        var note: String?
        switch action {
        case .revise: note = reader.string("note")
        case .rollback: note = reader.string("reason")
        default: break
        }
        if let text = note, text.count > 1_000 {
            reader.addError(FieldError(field: action == .revise ? "note" : "reason", message: "must be at most 1000 characters, got \(text.count)"))
        }
        try reader.finish()
        return note
    }
}
