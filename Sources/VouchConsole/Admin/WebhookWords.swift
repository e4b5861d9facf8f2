import VouchConsoleKit
import VouchDomain

/// Words for webhook values: what an administrator reads instead of `fix.rollout_step` or `dead`.
enum WebhookWords {
    /// "A fix's testing started", for the event's checkbox and its deliveries.
    static func event(_ type: WebhookEventType, _ messages: Messages = .english) -> String {
        switch type {
        case .fixCreated: messages[.eventFixCreated]
        case .fixTestingStarted: messages[.eventFixTestingStarted]
        case .fixRevised: messages[.eventFixRevised]
        case .feedbackReceived: messages[.eventFeedbackReceived]
        case .approvalRecorded: messages[.eventApprovalRecorded]
        case .fixPromoted: messages[.eventFixPromoted]
        case .fixReleased: messages[.eventFixReleased]
        case .fixPromotionFailed: messages[.eventFixPromotionFailed]
        case .fixPaused: messages[.eventFixPaused]
        case .fixResumed: messages[.eventFixResumed]
        case .fixRolledBack: messages[.eventFixRolledBack]
        case .fixRolloutStep: messages[.eventFixRolloutStep]
        case .webhookTest: messages[.eventWebhookTest]
        }
    }

    /// The events a webhook receives, for the list, in words: "Every event" when it chose none.
    static func events(_ types: [WebhookEventType], _ messages: Messages = .english) -> String {
        types.isEmpty ? messages[.webhooksEveryEvent] : types.map { event($0, messages) }.joined(separator: messages.language == .en ? "; " : "、")
    }

    /// A delivery status as the filter of a webhook's page names it.
    static func statusWord(_ status: WebhookDelivery.Status, _ messages: Messages = .english) -> String {
        switch status {
        case .pending: messages[.deliveryPending]
        case .succeeded: messages[.deliverySucceeded]
        case .dead: messages[.deliveryDead]
        case .cancelled: messages[.deliveryCancelled]
        }
    }

    /// Where a delivery stands, as a tag whose word says it and whose colour only repeats it.
    static func statusTag(_ delivery: WebhookDelivery, _ messages: Messages = .english) -> StatusTag {
        switch delivery.status {
        case .pending: StatusTag(messages[delivery.attempts == 0 ? .deliveryWaiting : .deliveryRetrying], tone: .waiting)
        case .succeeded: StatusTag(messages[.deliverySucceeded], tone: .good)
        case .dead: StatusTag(messages[.deliveryFailedForGood], tone: .bad)
        case .cancelled: StatusTag(messages[.deliveryCancelled])
        }
    }

    static func enabledTag(_ endpoint: WebhookEndpoint, _ messages: Messages = .english) -> StatusTag {
        endpoint.enabled ? StatusTag(messages[.webhooksEnabledTag], tone: .good) : StatusTag(messages[.webhooksDisabledTag], tone: .bad)
    }

    static func required(_ required: Bool, _ messages: Messages = .english) -> String {
        required ? messages[.webhooksRequiredYes] : messages[.webhooksNo]
    }
}
