import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// Panels, named groups of testers (docs/invitations.md, "Panels"), as `/v1/panels` and `vouch panel` keep them:
/// the list, a form that makes one, each panel with its members, adding and removing members, and deleting a panel
/// after a confirmation. Only those who manage testers reach them, as in the API.
struct PanelPages {
    static let access = ConsoleAccess.permission(.manageTesters)

    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/panels", Self.access, list)
        routes.form(&router, "/console/panels/new", Self.access, show: { try newForm($0, name: "", description: "", issues: []) }, submit: create)
        routes.get(&router, "/console/panels/{id}", Self.access, show)
        routes.post(&router, "/console/panels/{id}/members", Self.access, addMembers)
        routes.form(&router, "/console/panels/{id}/members/{tester}/remove", Self.access, show: confirmRemoval, submit: removeMember)
        routes.form(&router, "/console/panels/{id}/delete", Self.access, show: confirmDeletion, submit: delete)
    }

    static func fields(_ messages: Messages) -> FormFields {
        FormFields([("name", messages[.panelsName]), ("description", messages[.panelsDescription])])
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let panels = try services.panels.panels(for: try request.signedIn)
        let rows = panels.map { panel -> [HTML] in
            ["<a href=\"/console/panels/\(panel.id)\">\(panel.name)</a>", "\(panel.description ?? "")", "\(messages.number(panel.members.count))"]
        }
        let table = DataTable(caption: messages[.panelsCaption], columns: [messages[.panelsName], messages[.panelsDescription], messages[.panelsMembers]],
                              rows: rows, emptyText: messages[.panelsNone])
        let banner: NotificationBanner? = request.http.query["done"] == "deleted" ? NotificationBanner(.success, heading: messages[.panelsDeleted]) : nil
        return request.translatedPage(messages[.panelsTitle], banner: banner, content: """
        <h1 class="heading-l">\(messages[.panelsTitle])</h1>
        <p class="body">\(messages[.panelsIntro])</p>
        <p class="body"><a href="/console/panels/new" class="button">\(messages[.panelsCreate])</a></p>
        \(table.render())
        """)
    }

    func newForm(_ request: ConsoleRequest, name: String, description: String, issues: [FieldIssue]) throws -> HTTPResponse {
        let messages = request.messages
        let fields = HTML.join([
            TextField(name: "name", label: messages[.panelsName], hint: messages[.panelsNameHint], value: name, issue: issues.first { $0.field == "name" },
                      autocomplete: "off").render(messages),
            TextArea(name: "description", label: messages[.panelsDescriptionOptional], hint: messages[.panelsDescriptionHint], value: description,
                     issue: issues.first { $0.field == "description" }, rows: 3).render(messages),
            Button(messages[.panelsCreateButton]).render(),
        ])
        return request.translatedPage(messages[.panelsCreate], issues: issues, backLink: BackLink(href: "/console/panels", text: messages[.panelsBack]),
                                      content: """
        <h1 class="heading-l">\(messages[.panelsCreate])</h1>
        \(request.form("/console/panels/new", fields))
        """)
    }

    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let name = request.field("name")
        let description = request.form["description"] ?? ""
        // An empty description is none; an empty name is given, for the service to say it is required.
        switch try ServiceRefusal.attempt({
            try services.panels.create(name: name, description: description.isEmpty ? nil : description, by: try request.signedIn)
        }) {
        case .success(let panel): return .seeOther("/console/panels/\(panel.id)?done=created")
        case .failure(let refusal):
            guard refusal.status == 422 || refusal.status == 409 else { throw refusal.problem }
            let issues = refusal.status == 409 ? [FieldIssue(field: "name", message: request.messages(.panelsNameTaken, ["name": name]))]
                : PanelPages.fields(request.messages).issues(from: refusal.issues, messages: request.messages)
            return try newForm(request, name: name, description: description, issues: issues)
        }
    }
}
