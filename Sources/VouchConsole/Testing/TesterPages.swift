import Foundation
import VouchServerKit
import VouchServices
import VouchStore

/// The tester's pages: the fixes she tests and what to try, the feedback questions, her feedback, her data and her
/// withdrawal (docs/console.md, "Tester pages").
struct TesterPages {
    let routes: ConsoleRoutes
    let store: any Store
    let services: Services
    let clock: @Sendable () -> Date

    package func register(in router: inout APIRouter) {
        let journey = FeedbackJourney(store: store, clock: clock)
        FixToTryPage(routes: routes, journey: journey).register(in: &router)
        FeedbackPages(routes: routes, journey: journey).register(in: &router)
        FeedbackCheckPages(routes: routes, journey: journey, services: services).register(in: &router)
        MyFeedbackPage(routes: routes, store: store).register(in: &router)
        MyDataPages(routes: routes, store: store, services: services, clock: clock).register(in: &router)
    }
}
