import VouchCodec
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// `/console/audit`: the audit log for those who may read it through the API, filtered by action, principal, fix
/// and time, a page at a time. The filter is a GET form, so a filtered page has its own address; the audit service
/// reads the filter as it reads the API's query.
struct AuditPage {
    static let path = "/console/audit"
    /// The filter's fields, named as the API's query parameters, in page order.
    static let names = ["action", "principal", "fix", "since", "until"]

    let routes: ConsoleRoutes
    let services: Services

    func register(in router: inout APIRouter) {
        routes.get(&router, AuditPage.path, .permission(.readAll), show)
    }

    static func fields(_ messages: Messages) -> FormFields {
        FormFields([("action", messages[.auditAction]), ("principal", messages[.auditPrincipal]), ("fix", messages[.auditFix]),
                    ("since", messages[.auditSince]), ("until", messages[.auditUntil])])
    }

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let query = request.http.query
        let values = Dictionary(uniqueKeysWithValues: AuditPage.names.map { ($0, query[$0] ?? "") })
        let outcome = try ServiceRefusal.attempt { () throws -> (items: [AuditEvent], next: String?) in
            // A field left empty asks for no filter.
            func given(_ name: String) -> String? { values[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } }
            let filter = try AuditService.filter(fix: given("fix"), action: given("action"), principal: given("principal"),
                                                 since: given("since"), until: given("until"))
            var after: Int64?
            if let cursor = try Cursor.decode(query["cursor"]) {
                guard let id = Int64(cursor) else { throw FieldError(field: "cursor", message: "must be a next_cursor value from a previous page") }
                after = id
            }
            let found = try services.audit.events(matching: filter, after: after, limit: AdminPages.pageSize + 1, for: try request.signedIn)
            return Cursor.page(found, limit: AdminPages.pageSize) { String($0.id) }
        }
        switch outcome {
        case .success(let page): return render(request, values: values, events: page.items, next: page.next, issues: [])
        case .failure(let refusal):
            guard refusal.status == 422 || refusal.status == 400 else { throw refusal.problem }
            let issues = AuditPage.fields(messages).issues(from: refusal.issues, messages: messages)
            return render(request, values: values, events: nil, next: nil, issues: issues)
        }
    }

    /// `events` nil: the filter was refused, so no list is shown.
    private func render(_ request: ConsoleRequest, values: [String: String], events: [AuditEvent]?, next: String?, issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let actions = AuditAction.allCases.map { RadioGroup.Option($0.rawValue, $0.rawValue) }
        let filters = HTML.join([
            Select(name: "action", label: messages[.auditAction], options: actions, placeholder: messages[.auditAnyAction],
                   selected: values["action"] ?? "", issue: issue("action")).render(messages),
            TextField(name: "principal", label: messages[.auditPrincipal], hint: messages[.auditPrincipalHint], value: values["principal"] ?? "",
                      issue: issue("principal"), autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            TextField(name: "fix", label: messages[.auditFix], hint: messages[.auditFixHint], value: values["fix"] ?? "", issue: issue("fix"),
                      autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            TextField(name: "since", label: messages[.auditSince], hint: messages[.auditTimeHint], value: values["since"] ?? "", issue: issue("since"),
                      autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            TextField(name: "until", label: messages[.auditUntil], hint: messages[.auditUntilHint], value: values["until"] ?? "", issue: issue("until"),
                      autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            Button(messages[.auditApply]).render(),
        ])
        let filtered = AuditPage.names.contains { !(values[$0] ?? "").isEmpty }
        let clear: HTML = filtered ? "<p class=\"body\"><a href=\"\(AuditPage.path)\">\(messages[.auditClear])</a></p>" : .empty
        let list: HTML = events.map { events in
            let rows = events.map { event -> [HTML] in
                [messages.staffTimeElement(event.at), "\(event.principal)", "<code>\(event.action.rawValue)</code>",
                 event.fixKey.map { "<a href=\"/console/fixes/\($0)\">\($0)</a>" } ?? .empty, "\(event.subject ?? "")",
                 "\(event.note ?? "")", "\(event.via ?? "")"]
            }
            let table = DataTable(caption: messages[.auditCaption],
                                  columns: [messages[.auditTime], messages[.auditPrincipal], messages[.auditAction], messages[.auditFix],
                                            messages[.auditSubject], messages[.auditNote], messages[.auditVia]],
                                  rows: rows, emptyText: messages[filtered ? .auditNoneMatch : .auditNone])
            let keeping = AuditPage.names.compactMap { name in values[name].flatMap { $0.isEmpty ? nil : (name, $0) } }
            return table.render() + AdminPages.nextPageLink(AuditPage.path, cursor: next, keeping: keeping, subject: "events",
                                                             next: messages[.tokensNextPage], hidden: messages[.auditOfEvents])
        } ?? .empty
        return request.translatedPage(messages[.auditTitle], issues: issues, content: """
        <h1 class="heading-l">\(messages[.auditTitle])</h1>
        <p class="body">\(messages[.auditIntro])</p>
        <form method="get" action="\(AuditPage.path)" novalidate>
        <h2 class="heading-m">\(messages[.auditFilterTitle])</h2>
        \(filters)
        </form>
        \(clear)
        \(list)
        """)
    }
}
