import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchStore

/// One tester for the people who manage testers: their details, the fixes they are enrolled in, their personal
/// links, and the way to withdraw them (`/console/testers/{id}`).
struct TesterPage {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/testers/{id}", .permission(.manageTesters), show)
    }

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let banner: NotificationBanner? = switch request.http.query["done"] {
        case "created": NotificationBanner(.success, heading: "Tester added", body: """
            <p class="body">Enroll them in fixes from each fix's page of enrolled testers, and create a personal link below so they can give feedback in the console.</p>
            """)
        case "revoked": NotificationBanner(.success, heading: "Personal link revoked", body: "<p class=\"body\">It no longer signs anyone in.</p>")
        case "withdrawn": NotificationBanner(.success, heading: "Tester withdrawn", body: "<p class=\"body\">Their personal data was erased.</p>")
        default: nil
        }
        return try render(request, tester: try lookup.tester(request), linkForm: LinkForm(), banner: banner)
    }

    /// The page, with the personal-link form as given (its problems, after a refused POST).
    func render(_ request: ConsoleRequest, tester: Tester, linkForm: LinkForm, banner: NotificationBanner?) throws -> HTTPResponse {
        let name = TesterWords.name(tester)
        let content: HTML = """
        <h1 class="heading-l">\(name)</h1>
        \(SummaryList(details(of: tester)).render())
        \(try enrolledFixes(of: tester))
        \(tester.isActive ? try links(request, tester, linkForm: linkForm) : .empty)
        \(tester.isActive ? withdrawal(tester) : .empty)
        """
        return request.page(name, issues: linkForm.issues, backLink: BackLink(href: "/console/testers", text: "Back to testers"), banner: banner,
                            content: content)
    }

    private func details(of tester: Tester) -> [SummaryList.Row] {
        var rows: [SummaryList.Row] = [.init("Pseudonym", text: tester.id), .init("Status", TesterWords.status(tester).render())]
        if let withdrawnAt = tester.withdrawnAt {
            rows.append(.init("Withdrawn", "\(Words.timeElement(withdrawnAt)). Their name, contact, assistive technology, targeting keys and enrollments were erased."))
            return rows
        }
        let technologies = tester.assistiveTech.map { profile -> HTML in "<li>\(TesterWords.assistiveTech(profile))</li>" }
        rows += [
            .init("Name", text: TesterWords.name(tester)),
            .init("Contact", text: tester.contact ?? "Not given"),
            .init("Assistive technology", "<ul class=\"list list--plain\">\(technologies)</ul>"),
            .init("Targeting keys", text: tester.targetingKeys.joined(separator: ", ")),
            .init("Consent", "Consent text version \(tester.consent.version), given on \(Words.timeElement(tester.consent.givenAt)), recorded by \(tester.consent.recordedBy)"),
        ]
        return rows
    }

    private func enrolledFixes(of tester: Tester) throws -> HTML {
        let fixes = try lookup.store.enrolledFixes(of: tester.id).compactMap { try lookup.store.fix($0) }
        guard !fixes.isEmpty else { return "<h2 class=\"heading-m\">Enrolled fixes</h2><p class=\"body\">Not enrolled in any fix.</p>" }
        let items = fixes.map { fix -> HTML in
            "<li><a href=\"/console/fixes/\(fix.key.rawValue)\">\(Messages.english.title(of: fix))</a> \(Words.stateTag(fix.state).render())</li>"
        }
        return "<h2 class=\"heading-m\">Enrolled fixes</h2><ul class=\"list\">\(items)</ul>"
    }

    private func links(_ request: ConsoleRequest, _ tester: Tester, linkForm: LinkForm) throws -> HTML {
        let now = clock()
        let rows = try lookup.store.testerLinks(of: tester.id).map { link -> [HTML] in
            let status = LinkStatus(link, at: now)
            let revoke: HTML = status == .active
                ? "<a href=\"/console/testers/\(tester.id)/links/\(link.id)/revoke\">Revoke<span class=\"visually-hidden\"> link \(link.id)</span></a>" : "None"
            return ["\(link.id)", status.tag.render(), Words.timeElement(link.expiresAt), revoke]
        }
        let table = DataTable(caption: "Personal links", columns: ["Link", "Status", "Expires", "Action"], rows: rows,
                              emptyText: "No personal link yet.")
        return """
        \(table.render())
        <h2 class="heading-m">Create a personal link</h2>
        <p class="body">A personal link signs the tester in to the console without a token, to try their fixes and give feedback. You will see it once, to send it to them.</p>
        \(request.form("/console/testers/\(tester.id)/links", linkForm.render() + Button("Create a personal link").render()))
        """
    }

    private func withdrawal(_ tester: Tester) -> HTML {
        """
        <h2 class="heading-m">Withdraw</h2>
        <p class="body">When a tester asks to stop, withdraw them: their personal data is erased at once.</p>
        <p class="body"><a href="/console/testers/\(tester.id)/withdraw">Withdraw \(TesterWords.name(tester)) on their behalf</a></p>
        """
    }
}
