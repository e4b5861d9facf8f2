import Foundation
import VouchDomain
import VouchServerKit
import VouchServices
import VouchStore

/// The web console's pages, on the same router as the API so that metrics and the request log name their routes
/// (docs/console.md): the one place the application reaches the console's pages.
package enum ConsolePages {
    package static func register(in router: inout APIRouter, sessions: ConsoleSessions, services: Services, store: any Store,
                                 promotion: PromotionService, tokens: TokenDirectory, authFailures: AuthFailureLimiter,
                                 logger: Logger, mail: MailSettings = MailSettings(), identityProvider: IdentityProvider? = nil,
                                 clock: @escaping @Sendable () -> Date) {
        let routes = ConsoleRoutes(sessions: sessions)
        SignInPages(routes: routes, store: store, tokens: tokens, authFailures: authFailures, logger: logger, clock: clock,
                    offersIdentityProvider: identityProvider != nil).register(in: &router)
        if let identityProvider {
            IdentityProviderPages(routes: routes, store: store, provider: identityProvider, logger: logger, clock: clock).register(in: &router)
        }
        HomePages(routes: routes, store: store).register(in: &router)
        AssetPages(routes: routes).register(in: &router)
        ReviewPages(routes: routes, store: store, promotion: promotion, services: services).register(in: &router)
        AdminPages(routes: routes, store: store, services: services).register(in: &router)
        TesterPages(routes: routes, store: store, services: services, clock: clock).register(in: &router)
        MaintainerPages(routes: routes, store: store, services: services, clock: clock).register(in: &router)
        JoinPages(routes: routes, joining: services.joining, authFailures: authFailures, logger: logger).register(in: &router)
        InvitationPages(routes: routes, store: store, services: services, clock: clock).register(in: &router)
        UnsubscribePages(routes: routes, services: services).register(in: &router)
        NotificationPages(routes: routes, services: services, mail: mail).register(in: &router)
        AuditPage(routes: routes, services: services).register(in: &router)
    }
}
