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
        let messages = request.messages
        let stateText = request.http.query["state"] ?? ""
        let state = FixState(rawValue: stateText)
        guard stateText.isEmpty || state != nil else {
            let issue = FieldIssue(field: "state", message: messages[.fixListChooseState])
            return request.translatedPage(messages[.fixListTitle], issues: [issue], content: """
            <h1 class="heading-l">\(messages[.fixListTitle])</h1>
            \(filter(chosen: nil, issue: issue, messages))
            <p class="body">\(messages[.fixListNoneUntilState])</p>
            """)
        }
        // A key sorts after every key before it: the last key shown is where the next page starts.
        let after = request.http.query["after"].flatMap { $0.isEmpty ? nil : $0 }
        let fetched = try store.fixes(state: state, after: after, limit: FixListPage.pageSize + 1)
        let fixes = Array(fetched.prefix(FixListPage.pageSize))
        // In the middle of an English sentence a state reads in lower case ("fixes that are in testing").
        let stateWords = ["state": state.map { messages.state($0).lowercased() } ?? ""]
        let rows = fixes.map { fix -> [HTML] in
            ["<a href=\"\(ReviewPages.path(of: fix))\">\(messages.title(of: fix))</a><br><span class=\"hint\">\(fix.key.rawValue)</span>",
             Words.stateTag(fix.state, messages).render(), "\(messages.number(fix.revision))"]
        }
        let empty = switch (after != nil, state != nil) {
        case (true, false): messages[.fixListNoMoreAll]
        case (true, true): messages(.fixListNoMoreInState, stateWords)
        case (false, false): messages[.fixListNoneYet]
        case (false, true): messages(.fixListNoneInState, stateWords)
        }
        let caption = state == nil ? messages[.fixListCaptionAll] : messages(.fixListCaptionInState, stateWords)
        let table = DataTable(caption: caption, columns: [messages[.fixListFix], messages[.fixListState], messages[.fixListRevision]], rows: rows,
                              firstColumnHeadsRows: true, emptyText: empty)
        let create: HTML = principal.allows(.editFixes)
            ? "<p class=\"body\"><a href=\"/console/new-fix\" class=\"button\">\(messages[.overviewCreate])</a></p>" : .empty
        let title = state.map { messages(.fixListTitleInState, ["state": messages.state($0)]) } ?? messages[.fixListTitle]
        return request.translatedPage(title, content: """
        <h1 class="heading-l">\(title)</h1>
        \(create)
        \(filter(chosen: request.http.query["state"], issue: nil, messages))
        \(table.render())
        \(paging(state: state, after: after, next: fetched.count > FixListPage.pageSize ? fixes.last : nil, messages))
        """)
    }

    /// A GET form: the address it leads to can be bookmarked and shared, and it changes nothing, so it needs no CSRF token.
    private func filter(chosen: String?, issue: FieldIssue?, _ messages: Messages) -> HTML {
        let options = [RadioGroup.Option("", messages[.fixListAllStates])] + FixState.allCases.map { RadioGroup.Option($0.rawValue, messages.state($0)) }
        let radios = RadioGroup(name: "state", legend: messages[.fixListFilterLegend], options: options, selected: chosen, issue: issue, inline: true)
        return """
        <form method="get" action="/console/fixes">
        \(radios.render(messages))
        \(Button(messages[.fixListApplyFilter], kind: .secondary).render())
        </form>
        """
    }

    private func paging(state: FixState?, after: String?, next: Fix?, _ messages: Messages) -> HTML {
        let query = state.map { "state=\($0.rawValue)&" } ?? ""
        let hidden: HTML = "<span class=\"visually-hidden\"> \(messages[.fixListOfFixes])</span>"
        var links: [HTML] = []
        if after != nil { links.append("<li><a href=\"/console/fixes\(state.map { "?state=" + $0.rawValue } ?? "")\">\(messages[.fixListFirstPage])\(hidden)</a></li>") }
        if let next { links.append("<li><a href=\"/console/fixes?\(query)after=\(next.key.rawValue)\">\(messages[.fixListNextPage])\(hidden)</a></li>") }
        return links.isEmpty ? .empty : "<nav aria-label=\"\(messages[.fixListPagesLabel])\"><ul class=\"list list--plain\">\(links)</ul></nav>"
    }
}
