import VouchConsoleKit
import VouchDomain

/// Words for webhook values: what an administrator reads instead of `fix.rollout_step` or `dead`.
enum WebhookWords {
    /// "A fix's testing started", for the event's checkbox and its deliveries.
    static func event(_ type: WebhookEventType) -> String {
        switch type {
        case .fixCreated: "A fix is created"
        case .fixTestingStarted: "A fix's testing starts"
        case .fixRevised: "A fix gets a new revision"
        case .feedbackReceived: "A tester's feedback arrives"
        case .approvalRecorded: "A release manager approves or rejects a fix"
        case .fixPromoted: "A fix is promoted"
        case .fixReleased: "A fix is released"
        case .fixPromotionFailed: "A fix's promotion fails"
        case .fixPaused: "A fix is paused"
        case .fixResumed: "A fix is resumed"
        case .fixRolledBack: "A fix is rolled back"
        case .fixRolloutStep: "A phased rollout takes a step"
        case .webhookTest: "A test event"
        }
    }

    /// The events a webhook receives, for the list, in words: "Every event" when it chose none.
    static func events(_ types: [WebhookEventType]) -> String {
        types.isEmpty ? "Every event" : types.map(event).joined(separator: "; ")
    }

    /// A delivery status as the filter of a webhook's page names it.
    static func statusWord(_ status: WebhookDelivery.Status) -> String {
        switch status {
        case .pending: "Waiting or retrying"
        case .succeeded: "Delivered"
        case .dead: "Failed"
        case .cancelled: "Cancelled"
        }
    }

    /// Where a delivery stands, as a tag whose word says it and whose colour only repeats it.
    static func statusTag(_ delivery: WebhookDelivery) -> StatusTag {
        switch delivery.status {
        case .pending: StatusTag(delivery.attempts == 0 ? "Waiting to be sent" : "Retrying", tone: .waiting)
        case .succeeded: StatusTag("Delivered", tone: .good)
        case .dead: StatusTag("Failed, no more retries", tone: .bad)
        case .cancelled: StatusTag("Cancelled")
        }
    }

    static func enabledTag(_ endpoint: WebhookEndpoint) -> StatusTag {
        endpoint.enabled ? StatusTag("Enabled", tone: .good) : StatusTag("Disabled", tone: .bad)
    }

    static func required(_ required: Bool) -> String {
        required ? "Yes, a fix is released only once it answers with success" : "No"
    }
}
