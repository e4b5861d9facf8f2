import VouchDomain

/// One thing a committed write transaction changed, as the parts of the process that keep copies of stored state
/// need to know it (docs/architecture.md, "The change feed").
public enum StoreChange: Sendable {
    /// A fix's evaluation rule as committed: the fix was created, moved through its lifecycle, got a new revision or
    /// rollout step, or the keys it targets changed (direct targets, enrollments, a tester's keys, a withdrawal).
    /// Its `version` is the configuration revision of the transaction.
    case flagRule(FlagRule)
    /// A fix as it was before and after an update (any field).
    case fixChanged(FixChange)
    /// A fix's own criteria overrides changed.
    case criteriaChanged(fixKey: String)
    case tokenAdded(TokenRecord)
    /// A token was revoked: by hand, or with its tester's withdrawal. The record is the token after revocation.
    case tokenRevoked(TokenRecord)
    /// A tester was created, changed or withdrew.
    case testerChanged(id: String)
    case feedbackRecorded(FeedbackRecorded)
    case approvalRecorded(fixKey: String)
    /// This many webhook deliveries were put in the outbox.
    case outboxRowsAdded(Int)
    /// This many notifications by email were put in their outbox.
    case notificationsQueued(Int)
    /// A dead or cancelled delivery is pending again.
    case deliveryRequeued(id: String)
    /// A delivery reached its end (succeeded, dead).
    case deliverySettled(WebhookDelivery)
    /// An endpoint's pending deliveries were cancelled: it was disabled, deleted, or answered 410.
    case deliveriesCancelled(endpointID: String)
}

/// A submission's feedback as committed, with what promotion looks at next, read inside the same transaction.
public struct FeedbackRecorded: Sendable {
    /// The fix as it was when the feedback was recorded.
    public let fix: Fix
    public let records: [Feedback]

    public init(fix: Fix, records: [Feedback]) {
        self.fix = fix
        self.records = records
    }

    public var fixKey: String { fix.key.rawValue }
}
