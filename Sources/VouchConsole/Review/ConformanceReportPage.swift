import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/console/reports/acr`: the OpenACR report of fixes released together, or of a period, as a page for release
/// managers and maintainers (docs/evidence.md, "The report in the console"). The report is the one
/// `EvidenceService.openACR` builds for the API; this page only shows it: a table per chapter with its caption and
/// headers, each level in words. A GET form chooses the fixes, so a report's address can be bookmarked and shared.
struct ConformanceReportPage {
    let services: Services

    static let path = "/console/reports/acr"
    /// The form's fields, in page order, by the API's query names.
    static let fieldNames = ["fixes", "released_from", "released_to", "product_name", "product_version"]
    static let tables: [(id: String, caption: MessageKey)] = [("success_criteria_level_a", .acrTableA), ("success_criteria_level_aa", .acrTableAA),
                                                              ("success_criteria_level_aaa", .acrTableAAA)]
    static let chapters: [(id: String, title: MessageKey)] = [("en_301_549_web", .acrChapterWeb), ("en_301_549_software", .acrChapterSoftware)]

    /// A fix's report, as its page links to it.
    static func path(of fix: Fix) -> String { path + "?fixes=" + ConsoleRoutes.percentEncoded(fix.key.rawValue) }

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let query = ConformanceReportPage.asked(request.http.query)
        guard !query.isEmpty else {
            return request.translatedPage(messages[.acrTitle], content: """
            <h1 class="heading-l">\(messages[.acrTitle])</h1>
            <p class="body">\(messages[.acrIntro])</p>
            \(form(query, issues: [], messages))
            """)
        }
        let built = try ServiceRefusal.attempt { () throws -> JSONValue in
            let scope = try services.evidence.reportScope(query)
            return try services.evidence.openACR(scope, for: try request.signedIn)
        }
        switch built {
        case .success(let report):
            let product = report["product"]?["name"]?.stringValue ?? ""
            let heading = messages(.acrHeading, ["product": product])
            return request.translatedPage(heading, content: """
            <h1 class="heading-l">\(heading)</h1>
            \(ConformanceReportPage.render(report, messages))
            \(downloads(query, messages))
            <h2 class="heading-m">\(messages[.acrFormHeading])</h2>
            \(form(query, issues: [], messages))
            """)
        case .failure(let refusal) where refusal.status == 422:
            let issues = fields(messages).issues(from: refusal.issues, messages: messages)
            return request.translatedPage(messages[.acrTitle], issues: issues, content: """
            <h1 class="heading-l">\(messages[.acrTitle])</h1>
            <p class="body">\(messages[.acrIntro])</p>
            \(form(query, issues: issues, messages))
            """)
        case .failure(let refusal):
            throw refusal.problem
        }
    }

    /// The same report as a file, OpenACR YAML or Markdown, as the API answers it.
    func download(_ request: ConsoleRequest) throws -> HTTPResponse {
        let query = ConformanceReportPage.asked(request.http.query)
        let markdown = request.http.query["format"] == "markdown"
        let report = try services.evidence.openACR(try services.evidence.reportScope(query), for: try request.signedIn)
        let (text, type, name) = markdown ? (OpenACRMarkdown.string(report), "text/markdown; charset=utf-8", "acr.markdown")
            : (YAMLWriter.string(report), "application/yaml; charset=utf-8", "acr.yaml")
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: type), (name: "Content-Disposition", value: "attachment; filename=\"\(name)\"")],
                            body: Array(text.utf8))
    }

    /// The fields the form sent with something in them: an empty field is one not given.
    static func asked(_ query: [String: String]) -> [String: String] {
        var asked: [String: String] = [:]
        for name in fieldNames {
            if let value = query[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty { asked[name] = value }
        }
        return asked
    }

    func fields(_ messages: Messages) -> FormFields {
        FormFields([("fixes", messages[.acrFixes]), ("released_from", messages[.acrReleasedFrom]), ("released_to", messages[.acrReleasedTo]),
                    ("product_name", messages[.acrProductName]), ("product_version", messages[.acrProductVersion])])
    }

    /// A GET form: the report it leads to changes nothing, so it needs no CSRF token.
    func form(_ query: [String: String], issues: [FieldIssue], _ messages: Messages) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let configured = services.evidence.defaultProductName
        let productHint = messages[.acrProductNameHint] + (configured.isEmpty ? "" : " " + messages(.acrProductNameDefault, ["product": configured]))
        let period = FieldID.hint("period")
        return """
        <form method="get" action="\(ConformanceReportPage.path)" novalidate>
        \(TextField(name: "fixes", label: messages[.acrFixes], hint: messages[.acrFixesHint], value: query["fixes"] ?? "", issue: issue("fixes"),
                    autocomplete: "off", spellcheck: false).render(messages))
        <fieldset class="fieldset" aria-describedby="\(period)">
        <legend class="fieldset__legend">\(messages[.acrPeriod])</legend>
        <div id="\(period)" class="hint">\(messages[.acrPeriodHint])</div>
        \(TextField(name: "released_from", label: messages[.acrReleasedFrom], value: query["released_from"] ?? "", issue: issue("released_from"),
                    autocomplete: "off", width: "input--medium", spellcheck: false).render(messages))
        \(TextField(name: "released_to", label: messages[.acrReleasedTo], value: query["released_to"] ?? "", issue: issue("released_to"),
                    autocomplete: "off", width: "input--medium", spellcheck: false).render(messages))
        </fieldset>
        \(TextField(name: "product_name", label: messages[.acrProductName], hint: productHint, value: query["product_name"] ?? "",
                    issue: issue("product_name"), autocomplete: "off").render(messages))
        \(TextField(name: "product_version", label: messages[.acrProductVersion], hint: messages[.acrProductVersionHint],
                    value: query["product_version"] ?? "", issue: issue("product_version"), autocomplete: "off", width: "input--medium",
                    spellcheck: false).render(messages))
        \(Button(messages[.acrShow]).render())
        </form>
        """
    }

    func downloads(_ query: [String: String], _ messages: Messages) -> HTML {
        let asked = ConformanceReportPage.fieldNames.compactMap { name in query[name].map { "\(name)=\(ConsoleRoutes.percentEncoded($0))" } }
        let address = ConformanceReportPage.path + "/file?" + asked.joined(separator: "&")
        return """
        <h2 class="heading-m">\(messages[.acrDownloads])</h2>
        <ul class="list">
        <li><a href="\(address)&amp;format=openacr" download="acr.yaml">\(messages[.acrDownloadYAML])</a></li>
        <li><a href="\(address)&amp;format=markdown" download="acr.markdown">\(messages[.acrDownloadMarkdown])</a></li>
        </ul>
        """
    }

    /// The report as the page shows it: what it is about, then a table per WCAG level and the EN 301 549 chapters.
    /// Its prose (notes, methods, remarks) is the report's own English, marked so a screen reader reads it as English.
    static func render(_ report: JSONValue, _ messages: Messages) -> HTML {
        func english(_ value: JSONValue?) -> HTML { messages.authored(value?.stringValue ?? "", language: Language.en.rawValue) }
        let product = report["product"]
        let name = product?["name"]?.stringValue ?? ""
        let productText = product?["version"]?.stringValue.map { messages(.acrProductWithVersion, ["product": name, "version": $0]) } ?? name
        let about = SummaryList([
            .init(messages[.acrProduct], text: productText),
            .init(messages[.acrDescription], english(product?["description"])),
            .init(messages[.acrAuthor], text: [report["author"]?["name"]?.stringValue, report["author"]?["email"]?.stringValue].compactMap { $0 }.joined(separator: ", ")),
            .init(messages[.acrReportDate], text: report["report_date"]?.stringValue ?? ""),
            .init(messages[.acrCatalog], text: report["catalog"]?.stringValue ?? ""),
        ])
        let inEnglish: HTML = messages.language == .en ? .empty : "<p class=\"body\">\(messages[.acrInEnglish])</p>"
        var sections: [HTML] = ["""
        <h2 class="heading-m">\(messages[.acrAboutHeading])</h2>
        \(inEnglish)
        \(about.render(messages))
        <h3 class="heading-s">\(messages[.acrNotes])</h3>
        <p class="body">\(english(report["notes"]))</p>
        <h3 class="heading-s">\(messages[.acrMethods])</h3>
        <p class="body">\(english(report["evaluation_methods_used"]))</p>
        """]
        let chapters = report["chapters"]
        for table in tables {
            var rows: [[HTML]] = []
            for criterion in chapters?[table.id]?["criteria"]?.arrayValue ?? [] {
                let number = criterion["num"]?.stringValue ?? ""
                let title = english(.string(WCAGCatalog.criteria.first { $0.number == number }.map { "\(number) \($0.name)" } ?? number))
                for component in criterion["components"]?.arrayValue ?? [] {
                    let adherence = component["adherence"]
                    rows.append([title, "\(ConformanceReportPage.component(component["name"]?.stringValue, messages))",
                                 "\(ConformanceReportPage.level(adherence?["level"]?.stringValue, messages))", english(adherence?["notes"])])
                }
            }
            sections.append(DataTable(caption: messages[table.caption], columns: [messages[.acrColumnCriterion], messages[.acrColumnComponent],
                                                                                  messages[.acrColumnLevel], messages[.acrColumnRemarks]],
                                      rows: rows, emptyText: messages[.acrNoCriteria]).render())
        }
        for chapter in ConformanceReportPage.chapters {
            guard let notes = chapters?[chapter.id]?["notes"] else { continue }
            sections.append("<h2 class=\"heading-m\">\(messages[chapter.title])</h2>\n<p class=\"body\">\(english(notes))</p>")
        }
        return HTML.join(sections, separator: "\n")
    }

    /// An OpenACR level in words; one the page does not know is shown as the report has it.
    static func level(_ level: String?, _ messages: Messages) -> String {
        switch level.flatMap(ConformanceRollup.Level.init(rawValue:)) {
        case .supports: messages[.acrLevelSupports]
        case .partiallySupports: messages[.acrLevelPartiallySupports]
        case .doesNotSupport: messages[.acrLevelDoesNotSupport]
        case .notEvaluated: messages[.acrLevelNotEvaluated]
        case nil: level ?? ""
        }
    }

    static func component(_ name: String?, _ messages: Messages) -> String {
        switch name {
        case "software": messages[.acrComponentSoftware]
        case "web": messages[.acrComponentWeb]
        default: name ?? ""
        }
    }
}
