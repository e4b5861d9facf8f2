/// The `type` of a webhook event: the text stored with it, sent in its body and named in endpoints' filters.
///
/// The raw values are the contract of docs/contracts.md ("Webhooks") and never change.
public enum WebhookEventType: String, Sendable, CaseIterable {
    case fixCreated = "fix.created"
    case fixTestingStarted = "fix.testing_started"
    case fixRevised = "fix.revised"
    case feedbackReceived = "feedback.received"
    case approvalRecorded = "approval.recorded"
    case fixPromoted = "fix.promoted"
    case fixReleased = "fix.released"
    case fixPromotionFailed = "fix.promotion_failed"
    case fixPaused = "fix.paused"
    case fixResumed = "fix.resumed"
    case fixRolledBack = "fix.rolled_back"
    case fixRolloutStep = "fix.rollout_step"
    /// The ping of `POST /v1/webhooks/{id}/test`: sent only to the endpoint named, so no filter lists it.
    case webhookTest = "webhook.test"

    /// The types an endpoint may subscribe to, in the contract's order.
    public static let subscribable = allCases.filter { $0 != .webhookTest }

    /// The event a lifecycle action emits, if any.
    public init?(transition action: FixAction) {
        switch action {
        case .start: self = .fixTestingStarted
        case .revise: self = .fixRevised
        case .pause: self = .fixPaused
        case .resume: self = .fixResumed
        case .rollback: self = .fixRolledBack
        case .promote, .retryPromotion: self = .fixPromoted
        case .promotionSucceeded, .rolloutCompleted: self = .fixReleased
        case .promotionSucceededPhased: self = .fixRolloutStep
        case .promotionFailed: self = .fixPromotionFailed
        case .abandon: return nil
        }
    }
}
