import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore

/// `/v1/fixes/{key}/approvals`: release managers' decisions, bound to the revision and the evidence they saw.
struct ApprovalController {
    let store: any Store
    let promotion: PromotionService
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/approvals", .readAll, list)
        router.add("POST", "/v1/fixes/{key}/approvals", .approve, decide)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        let report = try promotion.report(for: fix)
        return .json(.object(["approvals": .array(report.approvals.map(ApprovalController.json)), "next_cursor": .null]))
    }

    func decide(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let decisionText = reader.string("decision")
        let comment = reader.nullableString("comment") ?? nil
        var decision: Approval.Decision?
        if let decisionText {
            decision = Approval.Decision(rawValue: decisionText)
            if decision == nil { reader.addError(FieldError(field: "decision", message: "'\(decisionText)' is not allowed; allowed: approve, reject")) }
        } else {
            reader.addError(FieldError(field: "decision", message: "is required; allowed: approve, reject"))
        }
        // Checked as the document checks it (a rejection's comment matches `\S`; `maxLength` counts code points as
        // sent), then stored trimmed.
        let trimmedComment = comment?.trimmingCharacters(in: .whitespacesAndNewlines)
        if decision == .reject, comment.map(SchemaText.isBlank) ?? true {
            reader.addError(FieldError(field: "comment", message: "is required for a rejection: say what must change"))
        }
        if let comment, SchemaText.length(comment) > 2_000 {
            reader.addError(FieldError(field: "comment", message: "must be at most 2000 characters, got \(SchemaText.length(comment))"))
        }
        try reader.finish()
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        // Read once: who shaped the revision (refused here with their reasons, and again by the store under the write
        // lock) and the evidence the decision covers.
        let input = try promotion.input(for: fix)
        if let author = input.authors.first(where: { Principal.sameIdentity($0.principal, context.principal.name) }) {
            throw DecisionRefused(author.refusal(fix: key, revision: fix.revision))
        }
        let decidable: [FixState] = [.testing, .promotionFailed]
        guard decidable.contains(fix.state) else {
            throw StoreConflict("fix \(key) is \(fix.state.rawValue); approvals are recorded while it is testing or promotion_failed")
        }
        let report = CriteriaEvaluator.evaluate(input)
        let replacing = try ApprovalController.replaceableVote(of: context.principal.name, in: report, revision: fix.revision)
        let approval = Approval(id: "apr_" + SecureRandom.alphanumeric(count: 16), fixKey: key, revision: fix.revision, principal: context.principal.name,
                                decision: decision!, comment: trimmedComment?.isEmpty == true ? nil : trimmedComment, evidenceHash: report.evidenceHash,
                                recordedAt: clock())
        let event = WebhookEventFactory.make(.approvalRecorded, fix: fix, evidence: promotion.evidence(for: fix), extra: [
            "decision": .string(approval.decision.rawValue), "principal": .string(approval.principal), "approval": .string(approval.id),
        ], at: approval.recordedAt)
        try store.recordApproval(approval, by: context.requester, replacing: replacing, emitting: [event])
        let standing = CriteriaEvaluator.standing(of: approval, input: try promotion.input(for: fix))
        return .json(ApprovalController.json(.init(approval: approval, standing: standing)), status: 201)
    }

    /// One standing vote per principal and revision: a rejection stands until a new revision and a valid approval
    /// stands until it is voided or expires; a voided or expired approval may be replaced after a new look at the
    /// evidence. Returns the approval to replace, if any.
    static func replaceableVote(of principal: String, in report: CriteriaReport, revision: Int) throws -> String? {
        let mine = report.approvals.filter { $0.approval.revision == revision && Principal.sameIdentity($0.approval.principal, principal) }
        guard let vote = mine.last else { return nil }
        if vote.approval.decision == .reject {
            throw StoreConflict("\(principal) rejected revision \(revision) (\(vote.approval.id)); a rejection stands until a new revision")
        }
        if vote.standing.isValid {
            throw StoreConflict("\(principal) already approved revision \(revision) (\(vote.approval.id)) and that approval still stands; one standing vote per principal and revision")
        }
        return vote.approval.id
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
