import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchStore

/// The console's start page: a tester's fixes to try, or the fixes by state for staff.
struct HomePages {
    let routes: ConsoleRoutes
    let store: any Store

    package func register(in router: inout APIRouter) {
        routes.get(&router, "/console/", .signedIn, home)
    }

    func home(_ request: ConsoleRequest) throws -> HTTPResponse {
        let principal = try request.signedIn
        if principal.role == .tester, let testerID = principal.testerID { return try testerHome(request, testerID: testerID) }
        return try staffHome(request)
    }

    private func testerHome(_ request: ConsoleRequest, testerID: String) throws -> HTTPResponse {
        let fixes = TesterFixes(store: store)
        let items = try fixes.fixesTakingFeedback(of: testerID).map { fix -> HTML in
            let status: StatusTag = try fixes.latestFeedback(on: fix, by: testerID) == nil
                ? StatusTag("Waiting for your feedback", tone: .waiting) : StatusTag("Feedback sent", tone: .good)
            return """
            <li><h2 class="heading-m"><a href="/console/testing/\(fix.key.rawValue)">\(fix.title)</a></h2>
            <p class="body">In the app: \(fix.uiArea). Platforms: \(fix.platforms.map(Words.platform).joined(separator: ", ")). Version \(fix.revision).</p>
            <p class="body">Your feedback on this version: \(status.render())</p></li>
            """
        }
        let list: HTML = items.isEmpty
            ? "<p class=\"body\">No fix is waiting for your feedback right now. The team will tell you when there is one.</p>"
            : "<ul class=\"list list--plain\">\(items)</ul>"
        return request.page("Your fixes", content: """
        <h1 class="heading-l">Your fixes</h1>
        <p class="body">These fixes are switched on for your account in the app. Try each one with your assistive technology, then tell the team how it worked.</p>
        \(list)
        """)
    }

    private func staffHome(_ request: ConsoleRequest) throws -> HTTPResponse {
        let counts = try store.operationalCounts().fixesByState
        let rows = FixState.allCases.map { state -> SummaryList.Row in
            let count = counts[state.rawValue] ?? 0
            return SummaryList.Row(Words.state(state), "<a href=\"/console/fixes?state=\(state.rawValue)\">\(count) \(count == 1 ? "fix" : "fixes")<span class=\"visually-hidden\"> \(Words.state(state).lowercased())</span></a>")
        }
        return request.page("Overview", content: """
        <h1 class="heading-l">Overview</h1>
        <p class="body">Fixes by state. <a href="/console/fixes">See all fixes</a>.</p>
        \(request.principal?.allows(.editFixes) == true ? HTML(trusted: "<p class=\"body\"><a href=\"/console/fixes/new\" class=\"button\">Create a fix</a></p>") : .empty)
        \(SummaryList(rows).render())
        """)
    }
}
