import Foundation
import VouchCrypto
import VouchDomain
import VouchStore

/// Release managers' decisions on a fix's revision, each bound to the evidence the decider saw.
public struct ApprovalService: Sendable {
    let store: any FixStore & ApprovalStore
    let promotion: PromotionService
    let clock: @Sendable () -> Date

    /// The most a decision's comment may say, in code points as sent.
    public static let maxCommentLength = 2_000

    public init(store: any FixStore & ApprovalStore, promotion: PromotionService, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.promotion = promotion
        self.clock = clock
    }

    /// Every standing decision on the fix, with whether it still counts.
    public func approvals(of key: String, for principal: Principal) throws -> [CriteriaReport.ApprovalEntry] {
        try AccessDenied.unless(principal, may: .readAll)
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        return try promotion.report(for: fix).approvals
    }

    /// Records an approval or a rejection of the fix's current revision. Whoever shaped the revision may not decide
    /// on it (four-eyes), and each principal has one standing vote per revision.
    /// - Parameter decision: nil when the input named none or an unknown one (then `readErrors` says which).
    public func decide(_ decision: Approval.Decision?, comment: String?, on key: String, readErrors: [FieldError] = [],
                       by principal: Principal) throws -> CriteriaReport.ApprovalEntry {
        try AccessDenied.unless(principal, may: .approve)
        var errors = readErrors
        if decision == nil, !errors.contains(where: { $0.field == "decision" }) {
            errors.append(FieldError(field: "decision", message: "is required; allowed: approve, reject"))
        }
        // Checked as the document checks it (a rejection's comment matches `\S`; `maxLength` counts code points as
        // sent), then stored trimmed.
        if decision == .reject, comment.map(SchemaText.isBlank) ?? true {
            errors.append(FieldError(field: "comment", message: "is required for a rejection: say what must change"))
        }
        if let comment, SchemaText.length(comment) > ApprovalService.maxCommentLength {
            errors.append(FieldError(field: "comment", message: "must be at most \(ApprovalService.maxCommentLength) characters, got \(SchemaText.length(comment))"))
        }
        guard errors.isEmpty, let decision else { throw ValidationFailure(errors) }
        let trimmedComment = comment?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        // Read once: who shaped the revision (refused here with their reasons, and again by the store under the write
        // lock) and the evidence the decision covers.
        let input = try promotion.input(for: fix)
        if let author = input.authors.first(where: { Principal.sameIdentity($0.principal, principal.name) }) {
            throw DecisionRefused(author.refusal(fix: key, revision: fix.revision))
        }
        let decidable: [FixState] = [.testing, .promotionFailed]
        guard decidable.contains(fix.state) else {
            throw StoreConflict("fix \(key) is \(fix.state.rawValue); approvals are recorded while it is testing or promotion_failed")
        }
        let report = CriteriaEvaluator.evaluate(input)
        let replacing = try ApprovalService.replaceableVote(of: principal.name, in: report, revision: fix.revision)
        let approval = Approval(id: "apr_" + SecureRandom.alphanumeric(count: 16), fixKey: key, revision: fix.revision, principal: principal.name,
                                decision: decision, comment: trimmedComment?.isEmpty == true ? nil : trimmedComment, evidenceHash: report.evidenceHash,
                                recordedAt: clock())
        let event = WebhookEventFactory.make(.approvalRecorded, fix: fix, evidence: WebhookEventFactory.Evidence(latest: input.latest), extra: [
            "decision": .string(approval.decision.rawValue), "principal": .string(approval.principal), "approval": .string(approval.id),
        ], at: approval.recordedAt)
        try store.recordApproval(approval, by: Requester(principal), replacing: replacing, emitting: [event])
        // Its standing as stored, to the millisecond, as every later report reads it: the store looks for the
        // failing record after each approval at that time.
        let after = try promotion.input(for: fix)
        let stored = after.approvals.first { $0.id == approval.id } ?? approval
        return CriteriaReport.ApprovalEntry(approval: approval, standing: CriteriaEvaluator.standing(of: stored, input: after))
    }

    /// One standing vote per principal and revision: a rejection stands until a new revision and a valid approval
    /// stands until it is voided or expires; a voided or expired approval may be replaced after a new look at the
    /// evidence. Returns the approval to replace, if any.
    public static func replaceableVote(of principal: String, in report: CriteriaReport, revision: Int) throws -> String? {
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
}
