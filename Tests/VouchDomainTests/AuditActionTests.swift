import Testing
import VouchDomain

/// Audit actions are typed, but the text stored and shown by `GET /v1/audit` is what it always was.
@Suite struct AuditActionTests {
    @Test(arguments: FixAction.allCases)
    func aTransitionIsAuditedAsFixAndTheActionsName(action: FixAction) {
        #expect(AuditAction(transition: action).rawValue == "fix." + action.rawValue)
    }

    @Test(arguments: Approval.Decision.allCases)
    func aDecisionIsAuditedAsApprovalAndTheDecision(decision: Approval.Decision) {
        #expect(AuditAction(decision: decision).rawValue == "approval." + decision.rawValue)
    }

    @Test func everyActionIsADottedVerbOfItsOwn() {
        let names = AuditAction.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.split(separator: ".").count == 2 })
    }
}

/// Webhook event types are typed; their text is the contract's.
@Suite struct WebhookEventTypeTests {
    @Test func subscribableTypesAreTheContractsInItsOrder() {
        #expect(WebhookEvent.types == [
            "fix.created", "fix.testing_started", "fix.revised", "feedback.received", "approval.recorded", "fix.promoted", "fix.released",
            "fix.promotion_failed", "fix.paused", "fix.resumed", "fix.rolled_back", "fix.rollout_step",
        ])
        #expect(WebhookEventType.webhookTest.rawValue == "webhook.test")
    }

    @Test(arguments: [
        (FixAction.start, WebhookEventType?.some(.fixTestingStarted)), (.revise, .fixRevised), (.pause, .fixPaused), (.resume, .fixResumed),
        (.rollback, .fixRolledBack), (.promote, .fixPromoted), (.retryPromotion, .fixPromoted), (.promotionSucceeded, .fixReleased),
        (.rolloutCompleted, .fixReleased), (.promotionSucceededPhased, .fixRolloutStep), (.promotionFailed, .fixPromotionFailed), (.abandon, nil),
    ])
    func eachTransitionEmitsItsEvent(action: FixAction, type: WebhookEventType?) {
        #expect(WebhookEventType(transition: action) == type)
    }
}
