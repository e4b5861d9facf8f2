import Foundation
import VouchCodec
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// Creating a tester's personal link, shown once, and revoking one after a confirmation
/// (`/console/testers/{id}/links`, `/console/testers/{id}/links/{link}/revoke`).
struct TesterLinkPages {
    let routes: ConsoleRoutes
    let page: TesterPage
    let services: Services

    var lookup: MaintainerLookup { page.lookup }

    func register(in router: inout APIRouter) {
        // Opening the answer's address again (a reload from the address bar) leads back to the tester, never to a new link.
        routes.form(&router, "/console/testers/{id}/links", .permission(.manageTesters),
                    show: { .seeOther("/console/testers/\(try lookup.tester($0).id)") }, submit: create)
        routes.get(&router, "/console/testers/{id}/links/{link}/created", .permission(.manageTesters), created)
        routes.form(&router, "/console/testers/{id}/links/{link}/revoke", .permission(.manageTesters), show: confirmRevocation, submit: revoke)
    }

    /// Makes the link and sends the browser to the page that shows its address once.
    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let tester = try lookup.tester(request)
        var form = LinkForm(validFor: request.field("valid_for"))
        guard form.isChosen else {
            form.issues = [FieldIssue(field: "valid_for", message: request.messages[.linkFormChoose])]
            return try page.render(request, tester: tester, linkForm: form, banner: nil)
        }
        let base = PublicAddress.base(configured: routes.sessions.settings.publicURL, host: request.http.header("host"))
        let outcome = try ServiceRefusal.attempt {
            try services.links.create(for: tester.id, validFor: form.validFor, base: base, by: try request.signedIn)
        }
        switch outcome {
        case .success(let created):
            return try routes.reveal(["url": created.url], at: "/console/testers/\(tester.id)/links/\(created.link.id)/created", request)
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            form.issues = FormFields([("valid_for", request.messages[.linkFormLabel])]).issues(from: refusal.issues, messages: request.messages)
            return try page.render(request, tester: tester, linkForm: form, banner: nil)
        }
    }

    /// The one page that shows a new personal link's address (`ConsoleRoutes.reveal`).
    func created(_ request: ConsoleRequest) throws -> HTTPResponse {
        let tester = try lookup.tester(request)
        let messages = request.messages
        let name = TesterWords.name(tester, messages)
        let back = (href: "/console/testers/\(tester.id)", text: messages(.linkBackToPage, ["name": name]))
        return try routes.revealed(request, next: back) { kept in
            let id = request.parameter("link")
            guard let link = try lookup.store.testerLinks(of: tester.id).first(where: { $0.id == id }) else {
                throw Problem(status: 404, detail: "the tester \(tester.id) has no link '\(id)'")
            }
            let channel = tester.contact.map { messages(.linkMessageTo, ["contact": $0]) } ?? messages[.linkAnyChannel]
            let sendTo = messages.html(.linkSendTo, ["name": "\(name)", "channel": "\(channel)", "date": messages.staffTimeElement(link.expiresAt)])
            // No language link: following one would find the address taken.
            return request.translatedPage(messages(.linkPageTitle, ["name": name]),
                                          backLink: BackLink(href: back.href, text: messages[.withdrawTesterBack]),
                                          banner: NotificationBanner(.success, heading: messages[.linkCreated]), switcher: false, content: """
            <h1 class="heading-l">\(messages(.linkPageTitle, ["name": name]))</h1>
            <h2 class="heading-m" id="personal-link">\(messages[.linkTheLink])</h2>
            <p class="secret">\(kept["url"] ?? "")</p>
            \(WarningText(messages[.linkCopyNow]).render(messages))
            <p class="body">\(sendTo)</p>
            <p class="body">\(messages[.linkIfLost])</p>
            <p class="body"><a href="\(back.href)">\(back.text)</a></p>
            """)
        }
    }

    func confirmRevocation(_ request: ConsoleRequest) throws -> HTTPResponse {
        let (tester, link) = try activeLink(request)
        let messages = request.messages
        let name = TesterWords.name(tester, messages)
        return Confirmation(title: messages(.linkRevokeQuestion, ["link": link.id, "name": name]),
                            back: BackLink(href: "/console/testers/\(tester.id)", text: messages[.withdrawTesterBack]),
                            consequences: """
            <ul class="list">
            <li>\(messages(.linkRevokeStops, ["name": name]))</li>
            <li>\(messages[.linkRevokeKeeps])</li>
            </ul>
            """, action: "/console/testers/\(tester.id)/links/\(link.id)/revoke", button: Button(messages[.linkRevokeButton], kind: .warning))
            .response(request)
    }

    func revoke(_ request: ConsoleRequest) throws -> HTTPResponse {
        let (tester, link) = try activeLink(request)
        _ = try services.links.revoke(link.id, of: tester.id, by: try request.signedIn)
        return .seeOther("/console/testers/\(tester.id)?done=revoked")
    }

    /// The tester and the link the address names, while the link still works; otherwise a page that says why not.
    private func activeLink(_ request: ConsoleRequest) throws -> (Tester, TesterLink) {
        let tester = try lookup.tester(request)
        let id = request.parameter("link")
        guard let link = try lookup.store.testerLinks(of: tester.id).first(where: { $0.id == id }) else {
            throw Problem(status: 404, detail: "the tester \(tester.id) has no link '\(id)'")
        }
        let status = LinkStatus(link, at: page.clock())
        guard status == .active else {
            throw Problem(status: 409, detail: "the link \(id) is \(status == .revoked ? "already revoked" : "expired"): it no longer signs anyone in")
        }
        return (tester, link)
    }
}
