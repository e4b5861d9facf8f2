import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/v1/fixes/{key}/approvals`: release managers' decisions, bound to the revision and the evidence they saw.
struct ApprovalController {
    let approvals: ApprovalService

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/approvals", .readAll, list)
        router.add("POST", "/v1/fixes/{key}/approvals", .approve, decide)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let entries = try approvals.approvals(of: context.parameters["key"], for: context.principal)
        return .json(.object(["approvals": .array(entries.map(ApprovalController.json)), "next_cursor": .null]))
    }

    func decide(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let decisionText = reader.string("decision")
        let comment = reader.nullableString("comment") ?? nil
        let decision = decisionText.flatMap(Approval.Decision.init(rawValue:))
        if let decisionText, decision == nil {
            reader.addError(FieldError(field: "decision", message: "'\(decisionText)' is not allowed; allowed: approve, reject"))
        }
        let entry = try approvals.decide(decision, comment: comment, on: context.parameters["key"], readErrors: reader.problems, by: context.principal)
        return .json(ApprovalController.json(entry), status: 201)
    }

    static func json(_ entry: CriteriaReport.ApprovalEntry) -> JSONValue {
        let approval = entry.approval
        return .object([
            "id": .string(approval.id), "fix": .string(approval.fixKey), "revision": .int(approval.revision), "principal": .string(approval.principal),
            "decision": .string(approval.decision.rawValue), "comment": .optional(approval.comment), "evidence_hash": .string(approval.evidenceHash),
            "recorded_at": .string(Timestamp.string(approval.recordedAt)), "valid": .bool(entry.standing.isValid && approval.decision == .approve),
            "standing": .string(entry.standing.explanation),
        ])
    }
}
