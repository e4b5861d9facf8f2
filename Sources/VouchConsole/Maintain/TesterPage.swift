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
        let messages = request.messages
        let banner: NotificationBanner? = switch request.http.query["done"] {
        case "created": NotificationBanner(.success, heading: messages[.testerAdded], body: "<p class=\"body\">\(messages[.testerAddedText])</p>")
        case "edited": NotificationBanner(.success, heading: messages[.testerEditEdited])
        case "revoked": NotificationBanner(.success, heading: messages[.testerLinkRevoked], body: "<p class=\"body\">\(messages[.testerLinkRevokedText])</p>")
        case "withdrawn": NotificationBanner(.success, heading: messages[.testerWithdrawn], body: "<p class=\"body\">\(messages[.testerWithdrawnText])</p>")
        default: nil
        }
        return try render(request, tester: try lookup.tester(request), linkForm: LinkForm(), banner: banner)
    }

    /// The page, with the personal-link form as given (its problems, after a refused POST).
    func render(_ request: ConsoleRequest, tester: Tester, linkForm: LinkForm, banner: NotificationBanner?) throws -> HTTPResponse {
        let messages = request.messages
        let name = TesterWords.name(tester, messages)
        let content: HTML = """
        <h1 class="heading-l">\(name)</h1>
        \(SummaryList(details(of: tester, messages)).render(messages))
        \(tester.isActive ? "<p class=\"body\"><a href=\"/console/testers/\(tester.id)/edit\">\(messages(.testerEditLink, ["name": name]))</a></p>" : HTML.empty)
        \(try enrolledFixes(of: tester, messages))
        \(tester.isActive ? try links(request, tester, linkForm: linkForm) : .empty)
        \(tester.isActive ? withdrawal(tester, messages) : .empty)
        """
        return request.translatedPage(name, issues: linkForm.issues, backLink: BackLink(href: "/console/testers", text: messages[.testerBackToTesters]),
                                      banner: banner, content: content)
    }

    private func details(of tester: Tester, _ messages: Messages) -> [SummaryList.Row] {
        var rows: [SummaryList.Row] = [.init(messages[.testersPseudonym], text: tester.id),
                                       .init(messages[.testersStatus], TesterWords.status(tester, messages).render())]
        if let withdrawnAt = tester.withdrawnAt {
            rows.append(.init(messages[.testerWithdrawnRow], messages.html(.testerWithdrawnAt, ["date": messages.staffTimeElement(withdrawnAt)])))
            return rows
        }
        let technologies = tester.assistiveTech.map { profile -> HTML in "<li>\(TesterWords.assistiveTech(profile, messages))</li>" }
        let consent = messages.html(.testerConsentText, ["version": "\(tester.consent.version)", "date": messages.staffTimeElement(tester.consent.givenAt),
                                                         "recordedBy": "\(tester.consent.recordedBy)"])
        rows += [
            .init(messages[.testersName], text: TesterWords.name(tester, messages)),
            .init(messages[.testerContact], text: tester.contact ?? messages[.testerNotGiven]),
            .init(messages[.testerFormEmail], text: tester.email ?? messages[.testerNotGiven]),
            .init(messages[.testersTechnology], "<ul class=\"list list--plain\">\(technologies)</ul>"),
            .init(messages[.testerTargetingKeys], text: messages.list(tester.targetingKeys)),
            .init(messages[.testerConsent], consent),
        ]
        return rows
    }

    private func enrolledFixes(of tester: Tester, _ messages: Messages) throws -> HTML {
        let fixes = try lookup.store.enrolledFixes(of: tester.id).compactMap { try lookup.store.fix($0) }
        guard !fixes.isEmpty else { return "<h2 class=\"heading-m\">\(messages[.testerEnrolledFixes])</h2><p class=\"body\">\(messages[.testerNotEnrolled])</p>" }
        let items = fixes.map { fix -> HTML in
            "<li><a href=\"/console/fixes/\(fix.key.rawValue)\">\(messages.title(of: fix))</a> \(Words.stateTag(fix.state, messages).render())</li>"
        }
        return "<h2 class=\"heading-m\">\(messages[.testerEnrolledFixes])</h2><ul class=\"list\">\(items)</ul>"
    }

    private func links(_ request: ConsoleRequest, _ tester: Tester, linkForm: LinkForm) throws -> HTML {
        let now = clock()
        let messages = request.messages
        let rows = try lookup.store.testerLinks(of: tester.id).map { link -> [HTML] in
            let status = LinkStatus(link, at: now)
            let revoke: HTML = status == .active
                ? "<a href=\"/console/testers/\(tester.id)/links/\(link.id)/revoke\">\(messages[.testerRevoke])<span class=\"visually-hidden\"> \(messages(.testerRevokeHidden, ["link": link.id]))</span></a>"
                : "\(messages[.testerNone])"
            return ["\(link.id)", status.tag(messages).render(), messages.staffTimeElement(link.expiresAt), revoke]
        }
        let table = DataTable(caption: messages[.testerLinksCaption],
                              columns: [messages[.testerLink], messages[.testersStatus], messages[.testerExpires], messages[.testerAction]], rows: rows,
                              emptyText: messages[.testerNoLinks])
        return """
        \(table.render())
        <h2 class="heading-m">\(messages[.testerCreateLink])</h2>
        <p class="body">\(messages[.testerCreateLinkText])</p>
        \(request.form("/console/testers/\(tester.id)/links", linkForm.render(messages) + Button(messages[.testerCreateLink]).render()))
        """
    }

    private func withdrawal(_ tester: Tester, _ messages: Messages) -> HTML {
        """
        <h2 class="heading-m">\(messages[.testerWithdrawTitle])</h2>
        <p class="body">\(messages[.testerWithdrawText])</p>
        <p class="body"><a href="/console/testers/\(tester.id)/withdraw">\(messages(.testerWithdrawLink, ["name": TesterWords.name(tester, messages)]))</a></p>
        """
    }
}
