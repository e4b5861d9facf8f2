import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/testers`: enrollment with consent, changes, withdrawal with erasure, and the tester's own export.
struct TesterController {
    let testers: TesterService
    let clock: @Sendable () -> Date

    package func register(in router: inout APIRouter) {
        router.add("POST", "/v1/testers", .manageTesters, create)
        router.add("GET", "/v1/testers", .manageTesters, list)
        router.add("GET", "/v1/testers/{id}", anyOf: [.manageTesters, .readEnrolledFixes], show)
        router.add("PATCH", "/v1/testers/{id}", .manageTesters, patch)
        router.add("POST", "/v1/testers/{id}/withdraw", anyOf: [.manageTesters, .readEnrolledFixes], withdraw)
        router.add("GET", "/v1/testers/{id}/export", anyOf: [.manageTesters, .readEnrolledFixes], export)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (draft, readErrors) = TesterDraft.read(try RequestBody.json(request))
        let created = try testers.create(draft, readErrors: readErrors, by: context.principal)
        return .json(created.jsonValue, status: 201, headers: [(name: "Location", value: "/v1/testers/\(created.id)")])
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try Cursor.listAnswer(request, name: "testers", key: \.id, json: \.jsonValue) { try testers.testers(after: $0, limit: $1, for: context.principal) }
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(try testers.tester(context.parameters["id"], for: context.principal).jsonValue)
    }

    func patch(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (draft, readErrors) = TesterDraft.read(try RequestBody.json(request))
        return .json(try testers.update(context.parameters["id"], with: draft, readErrors: readErrors, by: context.principal).jsonValue)
    }

    func withdraw(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request, emptyAllowed: true))
        let purge = reader.bool("purge_feedback") ?? false
        let withdrawal = try testers.withdraw(context.parameters["id"], purgeFeedback: purge, readErrors: reader.problems, by: context.principal)
        return .json(.object([
            "tester": withdrawal.tester.jsonValue, "feedback_unlinked": .int(withdrawal.feedbackUnlinked),
            "feedback_deleted": .int(withdrawal.feedbackDeleted), "tokens_revoked": .int(withdrawal.revokedTokenIDs.count),
        ]))
    }

    func export(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        return .json(try testers.export(id, for: context.principal).jsonValue(exportedAt: clock()),
                     headers: [(name: "Content-Disposition", value: "attachment; filename=\"vouch-tester-\(id).json\"")])
    }
}
