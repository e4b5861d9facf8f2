import Foundation
import VouchStore

/// Every service over one store, made once by the application and shared by the API's controllers and the console's
/// pages: each rule (who may, what is valid, what is audited) lives in one service, whichever of them asks. Each
/// service holds the store only as the aggregates it uses (`any FixStore & EnrollmentStore`, …), so what it can
/// touch is in its type and a test can stand in a fake for just those.
public struct Services: Sendable {
    public let fixes: FixService
    public let targets: TargetService
    public let testers: TesterService
    public let enrollments: EnrollmentService
    public let feedback: FeedbackService
    public let approvals: ApprovalService
    public let webhooks: WebhookService
    public let tokens: TokenService
    public let links: LinkService
    public let invitations: InvitationService
    public let joining: JoinService
    public let panels: PanelService
    public let notifications: NotificationService
    public let evidence: EvidenceService
    public let audit: AuditService

    public init(store: any Store, promotion: PromotionService, checkWebhookAddress: @escaping WebhookService.AddressCheck,
                makeWebhookSecret: @escaping @Sendable () -> String, linkValidSeconds: Int,
                programmeOperator: ProgrammeOperator = ProgrammeOperator(name: "", contact: ""), defaultLanguage: String = "en",
                consentTexts: ConsentTextLibrary = .standard, mailEnabled: Bool = false,
                webhookReceivers: WebhookService.Receivers = WebhookService.Receivers(), reportProductName: String = "",
                clock: @escaping @Sendable () -> Date) {
        let planner = NotificationPlanner(enabled: mailEnabled, defaultLanguage: defaultLanguage)
        fixes = FixService(store: store, promotion: promotion, defaultLanguage: defaultLanguage, clock: clock)
        targets = TargetService(store: store, clock: clock)
        testers = TesterService(store: store, notifications: planner, clock: clock)
        enrollments = EnrollmentService(store: store, notifications: planner, clock: clock)
        feedback = FeedbackService(store: store, notifications: planner, clock: clock)
        approvals = ApprovalService(store: store, promotion: promotion, clock: clock)
        webhooks = WebhookService(store: store, checkAddress: checkWebhookAddress, makeSecret: makeWebhookSecret, receivers: webhookReceivers, clock: clock)
        tokens = TokenService(store: store, clock: clock)
        links = LinkService(store: store, defaultValidSeconds: linkValidSeconds, clock: clock)
        notifications = NotificationService(store: store, clock: clock)
        invitations = InvitationService(store: store, programmeOperator: programmeOperator, defaultLanguage: defaultLanguage,
                                        notifications: planner, clock: clock)
        joining = JoinService(store: store, invitations: invitations, consentTexts: consentTexts, programmeOperator: programmeOperator,
                              linkValidSeconds: linkValidSeconds, clock: clock)
        panels = PanelService(store: store, clock: clock)
        evidence = EvidenceService(store: store, programmeOperator: programmeOperator, defaultProductName: reportProductName, clock: clock)
        audit = AuditService(store: store)
    }
}
