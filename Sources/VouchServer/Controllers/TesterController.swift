import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore

/// `/v1/testers`: enrollment with consent, changes, withdrawal with erasure, and the tester's own export.
struct TesterController {
    let store: any Store
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/testers", .manageTesters, create)
        router.add("GET", "/v1/testers", .manageTesters, list)
        router.add("GET", "/v1/testers/{id}", anyOf: [.manageTesters, .readEnrolledFixes], show)
        router.add("PATCH", "/v1/testers/{id}", .manageTesters, patch)
        router.add("POST", "/v1/testers/{id}/withdraw", anyOf: [.manageTesters, .readEnrolledFixes], withdraw)
        router.add("GET", "/v1/testers/{id}/export", anyOf: [.manageTesters, .readEnrolledFixes], export)
    }

    static func makeID() -> String { "t_" + SecureRandom.alphanumeric(count: 12) }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (draft, readErrors) = TesterDraft.read(try RequestBody.json(request))
        let tester = try TesterValidator.makeTester(from: draft, id: TesterController.makeID(), recordedBy: context.principal.name, at: clock(),
                                                    priorErrors: readErrors)
        let created = try store.createTester(tester, by: context.requester)
        return .json(created.jsonValue, status: 201, headers: [(name: "Location", value: "/v1/testers/\(created.id)")])
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try Cursor.listAnswer(request, name: "testers", key: \.id, json: \.jsonValue, fetch: store.testers)
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        try TesterScope(store: store).requireTesterAccess(context.principal, testerID: id)
        guard let tester = try store.tester(id) else { throw StoreError.notFound(kind: "tester", id: id) }
        return .json(tester.jsonValue)
    }

    func patch(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        // Say first that the tester withdrew: no field of theirs can be changed, however well formed.
        if let tester = try store.tester(id), !tester.isActive {
            throw StoreConflict("tester \(id) has withdrawn; their data was erased and cannot be changed")
        }
        let (draft, readErrors) = TesterDraft.read(try RequestBody.json(request))
        if !readErrors.isEmpty { throw ValidationFailure(readErrors) }
        let time = clock()
        let change = try store.updateTester(context.parameters["id"], by: context.requester) { tester in
            try TesterValidator.applyPatch(draft, to: tester, recordedBy: context.principal.name, at: time)
        }
        return .json(change.after.jsonValue)
    }

    func withdraw(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        try TesterScope(store: store).requireTesterAccess(context.principal, testerID: id)
        var reader = JSONFieldReader(object: try RequestBody.object(request, emptyAllowed: true))
        let purge = reader.bool("purge_feedback") ?? false
        try reader.finish()
        let withdrawal = try store.withdrawTester(id, purgeFeedback: purge, by: context.requester, at: clock())
        return .json(.object([
            "tester": withdrawal.tester.jsonValue, "feedback_unlinked": .int(withdrawal.feedbackUnlinked),
            "feedback_deleted": .int(withdrawal.feedbackDeleted), "tokens_revoked": .int(withdrawal.revokedTokenIDs.count),
        ]))
    }

    func export(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        try TesterScope(store: store).requireTesterAccess(context.principal, testerID: id)
        let export = try store.exportTester(id)
        return .json(.object([
            "tester": export.tester.jsonValue,
            "enrollments": .array(export.enrollments.map {
                .object(["fix": .string($0.fixKey), "enrolled_by": .string($0.enrolledBy), "enrolled_at": .string(Timestamp.string($0.enrolledAt))])
            }),
            "feedback": .array(export.feedback.map(\.jsonValue)),
            "tokens": .array(export.tokens.map { .object(TokenController.json($0)) }),
            "exported_at": .string(Timestamp.string(clock())),
        ]), headers: [(name: "Content-Disposition", value: "attachment; filename=\"vouch-tester-\(id).json\"")])
    }
}
