import Foundation
import VouchDomain
import VouchServerKit
import VouchServices
import VouchStore

/// The maintainer's pages: fixes (create, edit, start, revise, abandon, direct targets, enrolled testers) and
/// testers (list, add with consent, edit, details, personal links, withdrawal) and panels. Every change goes through the services the API uses.
struct MaintainerPages {
    let routes: ConsoleRoutes
    let store: any Store
    let services: Services
    let clock: @Sendable () -> Date

    package func register(in router: inout APIRouter) {
        let lookup = MaintainerLookup(store: store)
        FixFormPages(routes: routes, lookup: lookup, services: services).register(in: &router)
        FixActionPages(routes: routes, lookup: lookup, services: services).register(in: &router)
        TargetPages(routes: routes, lookup: lookup, services: services).register(in: &router)
        EnrollmentPages(routes: routes, lookup: lookup, services: services).register(in: &router)
        TesterListPage(routes: routes, lookup: lookup).register(in: &router)
        TesterFormPage(routes: routes, services: services).register(in: &router)
        TesterEditPage(routes: routes, services: services).register(in: &router)
        let testerPage = TesterPage(routes: routes, lookup: lookup, clock: clock)
        testerPage.register(in: &router)
        TesterLinkPages(routes: routes, page: testerPage, services: services).register(in: &router)
        TesterWithdrawalPage(routes: routes, lookup: lookup, services: services).register(in: &router)
        PanelPages(routes: routes, lookup: lookup, services: services).register(in: &router)
    }
}
