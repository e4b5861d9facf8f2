/// What an audit event records: the dotted verb stored with it and shown as `action` by `GET /v1/audit`.
///
/// The raw values are the stored text and never change; a lifecycle transition is `fix.` and the action's name.
public enum AuditAction: String, Sendable, CaseIterable {
    case fixCreate = "fix.create"
    case fixUpdate = "fix.update"
    case fixCriteria = "fix.criteria"
    case fixRollout = "fix.rollout"
    case fixRolloutStep = "fix.rollout_step"
    case fixTargets = "fix.targets"
    case fixEnroll = "fix.enroll"
    case fixUnenroll = "fix.unenroll"
    case fixStart = "fix.start"
    case fixRevise = "fix.revise"
    case fixPause = "fix.pause"
    case fixResume = "fix.resume"
    case fixAbandon = "fix.abandon"
    case fixRollback = "fix.rollback"
    case fixPromote = "fix.promote"
    case fixRetryPromotion = "fix.retry-promotion"
    case fixPromotionSucceeded = "fix.promotion-succeeded"
    case fixPromotionSucceededPhased = "fix.promotion-succeeded-phased"
    case fixPromotionFailed = "fix.promotion-failed"
    case fixRolloutCompleted = "fix.rollout-completed"
    case feedbackCreate = "feedback.create"
    case approvalApprove = "approval.approve"
    case approvalReject = "approval.reject"
    case tokenCreate = "token.create"
    case tokenRevoke = "token.revoke"
    case testerCreate = "tester.create"
    case testerUpdate = "tester.update"
    case testerWithdraw = "tester.withdraw"
    /// A personal console link was made for a tester, or revoked.
    case testerLinkCreate = "tester.link_create"
    case testerLinkRevoke = "tester.link_revoke"
    /// An invitation to join as a tester was made, or revoked.
    case invitationCreate = "invitation.create"
    case invitationRevoke = "invitation.revoke"
    /// A panel of testers was made or deleted, or testers were added to it or taken out.
    case panelCreate = "panel.create"
    case panelDelete = "panel.delete"
    case panelMemberAdd = "panel.member_add"
    case panelMemberRemove = "panel.member_remove"
    case webhookCreate = "webhook.create"
    case webhookUpdate = "webhook.update"
    case webhookDelete = "webhook.delete"
    case webhookDisable = "webhook.disable"
    case webhookRedeliver = "webhook.redeliver"

    /// The action a lifecycle transition is audited under.
    public init(transition action: FixAction) {
        switch action {
        case .start: self = .fixStart
        case .revise: self = .fixRevise
        case .pause: self = .fixPause
        case .resume: self = .fixResume
        case .abandon: self = .fixAbandon
        case .rollback: self = .fixRollback
        case .promote: self = .fixPromote
        case .retryPromotion: self = .fixRetryPromotion
        case .promotionSucceeded: self = .fixPromotionSucceeded
        case .promotionSucceededPhased: self = .fixPromotionSucceededPhased
        case .promotionFailed: self = .fixPromotionFailed
        case .rolloutCompleted: self = .fixRolloutCompleted
        }
    }

    /// The action an approval or a rejection is audited under.
    public init(decision: Approval.Decision) {
        switch decision {
        case .approve: self = .approvalApprove
        case .reject: self = .approvalReject
        }
    }
}
