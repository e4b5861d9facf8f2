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
        let messages = request.messages
        let rows = testers.map { tester -> [HTML] in
            ["<a href=\"/console/testers/\(tester.id)\">\(TesterWords.name(tester, messages))</a>", "\(tester.id)",
             TesterWords.status(tester, messages).render(), "\(TesterWords.assistiveTech(of: tester, messages))"]
        }
        let table = DataTable(caption: messages[.testersTitle],
                              columns: [messages[.testersName], messages[.testersPseudonym], messages[.testersStatus], messages[.testersTechnology]],
                              rows: rows, emptyText: messages[after == nil ? .testersNone : .testersNoMore])
        let hidden: HTML = "<span class=\"visually-hidden\"> \(messages[.testersOfTesters])</span>"
        var paging: [HTML] = []
        if after != nil { paging.append("<a href=\"/console/testers\">\(messages[.testersFirstPage])\(hidden)</a>") }
        if fetched.count > TesterListPage.pageSize, let last = testers.last {
            paging.append("<a href=\"/console/testers?after=\(last.id)\">\(messages[.testersNextPage])\(hidden)</a>")
        }
        let items = paging.map { link -> HTML in "<li>\(link)</li>" }
        let navigation: HTML = paging.isEmpty ? .empty
            : "<nav aria-label=\"\(messages[.testersPagesLabel])\"><ul class=\"list list--plain\">\(items)</ul></nav>"
        return request.translatedPage(messages[.testersTitle], content: """
        <h1 class="heading-l">\(messages[.testersTitle])</h1>
        <p class="body">\(messages[.testersIntro])</p>
        <p class="body"><a href="/console/testers/new" class="button">\(messages[.testersAdd])</a></p>
        \(table.render())
        \(navigation)
        """)
    }
}
