import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit

/// Every tester, a page at a time, with what people who manage testers need to choose one (`/console/testers`).
struct TesterListPage {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup

    static let pageSize = 50

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/testers", .permission(.manageTesters), list)
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        // `after` is the last id of the previous page; ids are compared, never interpreted, so any text is harmless.
        let after = request.http.query["after"].flatMap { $0.isEmpty || $0.utf8.count > 64 ? nil : $0 }
        let fetched = try lookup.store.testers(after: after, limit: TesterListPage.pageSize + 1)
        let testers = fetched.prefix(TesterListPage.pageSize)
        let rows = testers.map { tester -> [HTML] in
            ["<a href=\"/console/testers/\(tester.id)\">\(TesterWords.name(tester))</a>", "\(tester.id)",
             TesterWords.status(tester).render(), "\(TesterWords.assistiveTech(of: tester))"]
        }
        let table = DataTable(caption: "Testers", columns: ["Name", "Pseudonym", "Status", "Assistive technology"], rows: rows,
                              emptyText: after == nil ? "No tester yet." : "No more testers.")
        var paging: [HTML] = []
        if after != nil { paging.append("<a href=\"/console/testers\">First page<span class=\"visually-hidden\"> of testers</span></a>") }
        if fetched.count > TesterListPage.pageSize, let last = testers.last {
            paging.append("<a href=\"/console/testers?after=\(last.id)\">Next page<span class=\"visually-hidden\"> of testers</span></a>")
        }
        let items = paging.map { link -> HTML in "<li>\(link)</li>" }
        let navigation: HTML = paging.isEmpty ? .empty : "<nav aria-label=\"Pages of testers\"><ul class=\"list list--plain\">\(items)</ul></nav>"
        return request.page("Testers", content: """
        <h1 class="heading-l">Testers</h1>
        <p class="body">People who verify fixes with their assistive technology. Which technology someone uses is health data: only people who manage testers see it, and each tester sees their own.</p>
        <p class="body"><a href="/console/testers/new" class="button">Add a tester</a></p>
        \(table.render())
        \(navigation)
        """)
    }
}
