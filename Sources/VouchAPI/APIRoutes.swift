import Foundation
import VouchServerKit
import VouchServices
import VouchStore

/// The JSON API's routes under `/v1`, each controller turning requests into calls of the services the console calls
/// too: the one place the application reaches them. Health and OFREP are built by the application itself, which
/// answers OFREP's evaluations before routing.
package enum APIRoutes {
    package static func register(in router: inout APIRouter, services: Services, store: any Store, promotion: PromotionService,
                                 settings: ApplicationSettings, clock: @escaping @Sendable () -> Date) {
        FixController(fixes: services.fixes).register(in: &router)
        TargetController(targets: services.targets).register(in: &router)
        TokenController(tokens: services.tokens).register(in: &router)
        AuditController(audit: services.audit).register(in: &router)
        TesterController(testers: services.testers, clock: clock).register(in: &router)
        EnrollmentController(enrollments: services.enrollments).register(in: &router)
        FeedbackController(feedback: services.feedback).register(in: &router)
        ApprovalController(approvals: services.approvals).register(in: &router)
        StatusController(store: store, promotion: promotion, fixes: services.fixes, settings: settings, clock: clock).register(in: &router)
        WebhookController(webhooks: services.webhooks).register(in: &router)
        NotificationController(notifications: services.notifications).register(in: &router)
        TesterLinkController(links: services.links, settings: settings.console, clock: clock).register(in: &router)
        InvitationController(invitations: services.invitations, settings: settings.console, clock: clock).register(in: &router)
        ConsentTextController(joining: services.joining).register(in: &router)
        PanelController(panels: services.panels).register(in: &router)
        EvidenceController(evidence: services.evidence).register(in: &router)
        ReportController(evidence: services.evidence).register(in: &router)
    }
}
