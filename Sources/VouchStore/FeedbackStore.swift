import Foundation
import VouchDomain

/// Testers' feedback on a fix's revisions, and what the criteria read of it.
public protocol FeedbackStore: Sendable {
    /// Stores a submission's records in one transaction after checking, inside it, that the fix still takes feedback
    /// at the records' revision and every tester is active and enrolled.
    func submitFeedback(_ records: [Feedback], by requester: Requester, idempotency: IdempotencyClaim?,
                        emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent]) throws -> FeedbackSubmission
    func feedback(of key: String, tester: String?, revision: Int?, after seq: Int64?, limit: Int) throws -> [StoredFeedback]
    /// The latest feedback per tester on one revision, and how many records that revision has.
    func feedbackEvidence(of key: String, revision: Int) throws -> FeedbackEvidence
    /// The latest feedback per tester on one revision: what the criteria look at, without counting every record.
    func latestFeedback(of key: String, revision: Int) throws -> [Feedback]
    /// Every failing feedback on one revision, for voiding approvals given before it.
    func failingFeedback(of key: String, revision: Int) throws -> [(id: String, recordedAt: Date)]
}

extension FeedbackStore {
    public func submitFeedback(_ records: [Feedback], by requester: Requester, idempotency: IdempotencyClaim?) throws -> FeedbackSubmission {
        try submitFeedback(records, by: requester, idempotency: idempotency, emitting: { _, _, _ in [] })
    }
}
