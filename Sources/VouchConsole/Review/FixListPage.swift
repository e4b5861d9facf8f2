import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchStore

/// `/console/fixes`: every fix, or those in one state, a page of fixes at a time in the order of their keys.
struct FixListPage {
    let store: any Store
    static let pageSize = 50

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let principal = try request.signedIn
        let stateText = request.http.query["state"] ?? ""
        let state = FixState(rawValue: stateText)
        guard stateText.isEmpty || state != nil else {
            let issue = FieldIssue(field: "state", message: "Choose one of the states listed, or All states")
            return request.page("Fixes", issues: [issue], content: "<h1 class=\"heading-l\">Fixes</h1>" + filter(chosen: nil, issue: issue) + "<p class=\"body\">No fixes are shown until you choose a state.</p>")
        }
        // A key sorts after every key before it: the last key shown is where the next page starts.
        let after = request.http.query["after"].flatMap { $0.isEmpty ? nil : $0 }
        let fetched = try store.fixes(state: state, after: after, limit: FixListPage.pageSize + 1)
        let fixes = Array(fetched.prefix(FixListPage.pageSize))
        let subject = state.map { "fixes that are \(Words.state($0).lowercased())" } ?? "all fixes"
        let rows = fixes.map { fix -> [HTML] in
            ["<a href=\"\(ReviewPages.path(of: fix))\">\(fix.title)</a><br><span class=\"hint\">\(fix.key.rawValue)</span>",
             Words.stateTag(fix.state).render(), "\(fix.revision)"]
        }
        let empty = after != nil ? "There are no more \(subject)." : state == nil ? "There are no fixes yet." : "No fix is \(Words.state(state!).lowercased()) now."
        let table = DataTable(caption: ReviewWords.sentence(subject, period: false), columns: ["Fix", "State", "Revision"], rows: rows,
                              firstColumnHeadsRows: true, emptyText: empty)
        let create: HTML = principal.allows(.editFixes) ? "<p class=\"body\"><a href=\"/console/fixes/new\" class=\"button\">Create a fix</a></p>" : .empty
        let title = state.map { "Fixes: \(Words.state($0))" } ?? "Fixes"
        return request.page(title, content: """
        <h1 class="heading-l">\(title)</h1>
        \(create)
        \(filter(chosen: request.http.query["state"], issue: nil))
        \(table.render())
        \(paging(state: state, after: after, next: fetched.count > FixListPage.pageSize ? fixes.last : nil))
        """)
    }

    /// A GET form: the address it leads to can be bookmarked and shared, and it changes nothing, so it needs no CSRF token.
    private func filter(chosen: String?, issue: FieldIssue?) -> HTML {
        let options = [RadioGroup.Option("", "All states")] + FixState.allCases.map { RadioGroup.Option($0.rawValue, Words.state($0)) }
        let radios = RadioGroup(name: "state", legend: "Show fixes in this state", options: options, selected: chosen, issue: issue, inline: true)
        return """
        <form method="get" action="/console/fixes">
        \(radios.render())
        \(Button("Apply filter", kind: .secondary).render())
        </form>
        """
    }

    private func paging(state: FixState?, after: String?, next: Fix?) -> HTML {
        let query = state.map { "state=\($0.rawValue)&" } ?? ""
        var links: [HTML] = []
        if after != nil { links.append("<li><a href=\"/console/fixes\(state.map { "?state=" + $0.rawValue } ?? "")\">First page<span class=\"visually-hidden\"> of fixes</span></a></li>") }
        if let next { links.append("<li><a href=\"/console/fixes?\(query)after=\(next.key.rawValue)\">Next page<span class=\"visually-hidden\"> of fixes</span></a></li>") }
        return links.isEmpty ? .empty : "<nav aria-label=\"Pages of fixes\"><ul class=\"list list--plain\">\(links)</ul></nav>"
    }
}
