import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// The release manager's pages: fixes by state, the fix page every staff role reads, the decision on a fix, and
/// the release actions, each behind a confirmation page.
struct ReviewPages {
    let routes: ConsoleRoutes
    let store: any Store
    let promotion: PromotionService
    let services: Services

    package func register(in router: inout APIRouter) {
        let list = FixListPage(store: store)
        routes.get(&router, "/console/fixes", .permission(.readAll), list.show)
        let fixPage = FixPage(store: store, promotion: promotion, evidence: services.evidence)
        routes.get(&router, "/console/fixes/{key}", .permission(.readAll), fixPage.show)
        let decision = DecisionPages(store: store, promotion: promotion, services: services)
        routes.get(&router, "/console/fixes/{key}/decision", .permission(.approve), decision.form)
        routes.post(&router, "/console/fixes/{key}/decision", .permission(.approve), decision.submit)
        let criteria = CriteriaPage(services: services)
        routes.get(&router, "/console/fixes/{key}/criteria", .permission(.decideRelease), criteria.form)
        routes.post(&router, "/console/fixes/{key}/criteria", .permission(.decideRelease), criteria.submit)
        let report = ConformanceReportPage(services: services)
        routes.get(&router, ConformanceReportPage.path, .permission(.readAll), report.show)
        routes.get(&router, ConformanceReportPage.path + "/file", .permission(.readAll), report.download)
        let actions = ReleaseActionPages(store: store, promotion: promotion, services: services)
        for action in ReleaseAction.allCases {
            // One literal route per action, so the maintainer's own action pages beside them never collide.
            routes.get(&router, "/console/fixes/{key}/\(action.rawValue)", .permission(.decideRelease)) { try actions.confirmation($0, action) }
            routes.post(&router, "/console/fixes/{key}/\(action.rawValue)", .permission(.decideRelease)) { try actions.perform($0, action) }
        }
    }

    /// The fix the route's `{key}` names, or a "Page not found" answer.
    static func fix(_ request: ConsoleRequest, in store: any Store) throws -> Fix {
        let key = request.parameter("key")
        guard let fix = try store.fix(key) else { throw Problem(status: 404, detail: "there is no fix with the key '\(key)'") }
        return fix
    }

    static func path(of fix: Fix) -> String { "/console/fixes/" + fix.key.rawValue }
}
