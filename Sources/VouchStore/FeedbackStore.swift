import Foundation
import VouchDomain

/// Testers' feedback on a fix's revisions, and what the criteria read of it.
public protocol FeedbackStore: Sendable {
    /// Stores a submission's records in one transaction: reads the fix inside it, hands it to `build`, which makes the
    /// records against it (or throws), then checks that the fix takes feedback at the records' revision and every
    /// tester is active and enrolled. A replayed idempotency claim returns the records first stored under it. The
    /// notifications by email `notifying` plans from the new records are queued in the same transaction.
    func submitFeedback(to key: String, by requester: Requester, idempotency: IdempotencyClaim?,
                        _ build: @escaping @Sendable (Fix) throws -> [Feedback],
                        emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent],
                        notifying: @escaping @Sendable (_ stored: [Feedback], Fix, NotificationRecipients) throws -> [MailNotification]) throws -> FeedbackSubmission
    /// `submitFeedback` for a caller that does not wait for the commit: `completion` gets the submission or the error
    /// on the thread that led the group commit, perhaps this one before the call returns.
    func submitFeedback(to key: String, by requester: Requester, idempotency: IdempotencyClaim?,
                        _ build: @escaping @Sendable (Fix) throws -> [Feedback],
                        emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent],
                        notifying: @escaping @Sendable (_ stored: [Feedback], Fix, NotificationRecipients) throws -> [MailNotification],
                        completion: @escaping @Sendable (Result<FeedbackSubmission, any Error>) -> Void)
    func feedback(of key: String, tester: String?, revision: Int?, after seq: Int64?, limit: Int) throws -> [StoredFeedback]
    /// The latest feedback per tester on one revision, and how many records that revision has.
    func feedbackEvidence(of key: String, revision: Int) throws -> FeedbackEvidence
    /// The latest feedback per tester on one revision: what the criteria look at, without counting every record.
    func latestFeedback(of key: String, revision: Int) throws -> [Feedback]
    /// What `fix`'s criteria are evaluated on, at its current revision, in one read transaction.
    func criteriaRecords(of fix: Fix) throws -> CriteriaRecords
    /// The fix, and what its criteria are evaluated on when `wanted` says so of it and its approvals (read first), in
    /// one read transaction; nil when there is no such fix.
    func criteriaRecords(of key: String, when wanted: (Fix, [Approval]) -> Bool) throws -> (fix: Fix, records: CriteriaRecords?)?
}

extension FeedbackStore {
    public func submitFeedback(to key: String, by requester: Requester, idempotency: IdempotencyClaim?,
                               _ build: @escaping @Sendable (Fix) throws -> [Feedback],
                               emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent]) throws -> FeedbackSubmission {
        try submitFeedback(to: key, by: requester, idempotency: idempotency, build, emitting: emitting, notifying: { _, _, _ in [] })
    }

    /// Stores records already made against the fix as the caller read it.
    public func submitFeedback(_ records: [Feedback], by requester: Requester, idempotency: IdempotencyClaim?,
                               emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent]) throws -> FeedbackSubmission {
        try submitFeedback(to: records.first?.fixKey ?? "", by: requester, idempotency: idempotency, { _ in records }, emitting: emitting)
    }

    public func submitFeedback(_ records: [Feedback], by requester: Requester, idempotency: IdempotencyClaim?) throws -> FeedbackSubmission {
        try submitFeedback(records, by: requester, idempotency: idempotency, emitting: { _, _, _ in [] })
    }
}
