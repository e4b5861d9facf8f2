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
        let messages = request.messages
        let items = try fixes.fixesTakingFeedback(of: testerID).map { fix -> HTML in
            let status: StatusTag = try fixes.latestFeedback(on: fix, by: testerID) == nil
                ? StatusTag(messages[.homeWaiting], tone: .waiting) : StatusTag(messages[.homeSent], tone: .good)
            let details = messages.html(.homeFixDetails, ["area": messages.area(of: fix), "platforms": "\(messages.list(fix.platforms.map(Words.platform)))",
                                                          "revision": "\(messages.number(fix.revision))"])
            return """
            <li><h2 class="heading-m"><a href="/console/testing/\(fix.key.rawValue)">\(messages.title(of: fix))</a></h2>
            <p class="body">\(details)</p>
            <p class="body">\(messages.html(.homeYourFeedback, ["status": status.render()]))</p></li>
            """
        }
        let list: HTML = items.isEmpty ? "<p class=\"body\">\(messages[.homeNone])</p>" : "<ul class=\"list list--plain\">\(items)</ul>"
        return request.translatedPage(messages[.homeTitle], content: """
        <h1 class="heading-l">\(messages[.homeTitle])</h1>
        <p class="body">\(messages[.homeIntro])</p>
        \(list)
        """)
    }

    private func staffHome(_ request: ConsoleRequest) throws -> HTTPResponse {
        let counts = try store.operationalCounts().fixesByState
        let messages = request.messages
        let rows = FixState.allCases.map { state -> SummaryList.Row in
            let count = messages.count(counts[state.rawValue] ?? 0, one: .overviewFixesOne, other: .overviewFixesOther)
            return SummaryList.Row(messages.state(state), "<a href=\"/console/fixes?state=\(state.rawValue)\">\(count)<span class=\"visually-hidden\"> \(messages.state(state).lowercased())</span></a>")
        }
        let create: HTML = request.principal?.allows(.editFixes) == true
            ? "<p class=\"body\"><a href=\"/console/new-fix\" class=\"button\">\(messages[.overviewCreate])</a></p>" : .empty
        let allFixes: HTML = "<a href=\"/console/fixes\">\(messages[.overviewAllFixes])</a>"
        return request.translatedPage(messages[.overviewTitle], content: """
        <h1 class="heading-l">\(messages[.overviewTitle])</h1>
        <p class="body">\(messages.html(.overviewIntro, ["link": allFixes]))</p>
        \(create)
        \(SummaryList(rows).render(messages))
        """)
    }
}
