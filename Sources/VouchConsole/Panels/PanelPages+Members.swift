import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices

/// One panel: its members, the form that adds testers, and the confirmations that remove one or delete the panel.
extension PanelPages {
    /// More testers than this are added with `vouch panel add`.
    static let listedTesters = 500

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let key: MessageKey? = switch request.http.query["done"] {
        case "created": .panelsCreated
        case "added": .panelsAdded
        case "removed": .panelsRemoved
        default: nil
        }
        return try render(request, panel: try panel(request), chosen: [], issues: [], banner: key.map { NotificationBanner(.success, heading: messages[$0]) })
    }

    func addMembers(_ request: ConsoleRequest) throws -> HTTPResponse {
        let panel = try panel(request)
        let chosen = request.form.values("testers")
        guard !chosen.isEmpty else {
            return try render(request, panel: panel, chosen: [], issues: [FieldIssue(field: "testers", message: request.messages[.panelsSelectOne])], banner: nil)
        }
        switch try ServiceRefusal.attempt({ try services.panels.add(chosen, to: panel.id, by: try request.signedIn) }) {
        case .success: return .seeOther("/console/panels/\(panel.id)?done=added")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return try render(request, panel: panel, chosen: Set(chosen),
                              issues: FormFields([("testers", request.messages[.panelsAddTitle])]).issues(from: refusal.issues, messages: request.messages),
                              banner: nil)
        }
    }

    private func render(_ request: ConsoleRequest, panel: Panel, chosen: Set<String>, issues: [FieldIssue], banner: NotificationBanner?) throws -> HTTPResponse {
        let messages = request.messages
        let memberIDs = Set(panel.members.map(\.testerID))
        let rows = try panel.members.map { member -> [HTML] in
            let name = try lookup.store.tester(member.testerID).map { TesterWords.name($0, messages) } ?? messages[.enrollmentsUnknown]
            return ["<a href=\"/console/testers/\(member.testerID)\">\(name)</a>", "\(member.testerID)", messages.staffTimeElement(member.addedAt),
                    "<a href=\"/console/panels/\(panel.id)/members/\(member.testerID)/remove\">\(messages[.panelsRemove])<span class=\"visually-hidden\"> \(messages(.panelsRemoveHidden, ["name": name]))</span></a>"]
        }
        let table = DataTable(caption: messages[.panelsMembers],
                              columns: [messages[.enrollmentsTester], messages[.enrollmentsPseudonym], messages[.panelsAddedAt], messages[.enrollmentsAction]],
                              rows: rows, emptyText: messages[.panelsNoMembers])
        let candidates = try lookup.activeTesters(limit: PanelPages.listedTesters).filter { !memberIDs.contains($0.id) }
        let addForm: HTML = candidates.isEmpty
            ? "<h2 class=\"heading-m\">\(messages[.panelsAddTitle])</h2><p class=\"body\">\(messages[.panelsEveryoneIn])</p>"
            : TesterChoice(legend: messages[.panelsAddTitle], hint: messages[.panelsAddHint], button: messages[.panelsAddButton])
                .form(request, action: "/console/panels/\(panel.id)/members", candidates: candidates, chosen: chosen, issue: issues.first { $0.field == "testers" })
        let details = SummaryList([
            .init(messages[.panelsDescription], text: panel.description ?? messages[.testerNotGiven]),
            .init(messages[.panelsMadeBy], messages.html(.webhooksAddedBy, ["name": "\(panel.createdBy)", "date": messages.staffTimeElement(panel.createdAt)])),
            .init(messages[.tokensId], text: panel.id),
        ])
        return request.translatedPage(panel.name, issues: issues, backLink: BackLink(href: "/console/panels", text: messages[.panelsBack]), banner: banner,
                                      content: """
        <h1 class="heading-l">\(panel.name)</h1>
        \(details.render(messages))
        \(table.render())
        \(addForm)
        <h2 class="heading-m">\(messages[.panelsDeleteTitle])</h2>
        <p class="body"><a href="/console/panels/\(panel.id)/delete">\(messages(.panelsDeleteLink, ["name": panel.name]))</a></p>
        """)
    }

    func confirmRemoval(_ request: ConsoleRequest) throws -> HTTPResponse {
        let (panel, tester) = try member(request)
        let messages = request.messages
        let name = TesterWords.name(tester, messages)
        return Confirmation(title: messages(.panelsRemoveQuestion, ["name": name, "panel": panel.name]),
                            back: BackLink(href: "/console/panels/\(panel.id)", text: messages(.panelsBackTo, ["panel": panel.name])),
                            consequences: "<p class=\"body\">\(messages(.panelsRemoveKeeps, ["name": name]))</p>",
                            action: "/console/panels/\(panel.id)/members/\(tester.id)/remove", button: Button(messages[.panelsRemoveButton], kind: .warning))
            .response(request)
    }

    func removeMember(_ request: ConsoleRequest) throws -> HTTPResponse {
        let (panel, tester) = try member(request)
        _ = try services.panels.remove(tester.id, from: panel.id, by: try request.signedIn)
        return .seeOther("/console/panels/\(panel.id)?done=removed")
    }

    func confirmDeletion(_ request: ConsoleRequest) throws -> HTTPResponse {
        let panel = try panel(request)
        let messages = request.messages
        return Confirmation(title: messages(.panelsDeleteQuestion, ["panel": panel.name]),
                            back: BackLink(href: "/console/panels/\(panel.id)", text: messages(.panelsBackTo, ["panel": panel.name])),
                            consequences: "<p class=\"body\">\(messages(.panelsDeleteKeeps, ["count": messages.number(panel.members.count)]))</p>",
                            action: "/console/panels/\(panel.id)/delete", button: Button(messages[.panelsDeleteButton], kind: .warning))
            .response(request)
    }

    func delete(_ request: ConsoleRequest) throws -> HTTPResponse {
        _ = try services.panels.delete(request.parameter("id"), by: try request.signedIn)
        return .seeOther("/console/panels?done=deleted")
    }

    private func panel(_ request: ConsoleRequest) throws -> Panel {
        try services.panels.panel(request.parameter("id"), for: try request.signedIn)
    }

    /// The panel and the tester the address names, when she is in it; otherwise a 404 page.
    private func member(_ request: ConsoleRequest) throws -> (Panel, Tester) {
        let panel = try panel(request)
        let id = request.parameter("tester")
        guard panel.members.contains(where: { $0.testerID == id }), let tester = try lookup.store.tester(id) else {
            throw Problem(status: 404, detail: "tester '\(id)' is not in the panel \(panel.id)")
        }
        return (panel, tester)
    }
}
