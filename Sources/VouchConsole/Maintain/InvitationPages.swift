import Foundation
import VouchCodec
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// Invitations for those who manage testers (docs/invitations.md): the list, a form that makes one and shows its
/// address once, and revoking one after a confirmation. Every word comes from the catalogs.
struct InvitationPages {
    let routes: ConsoleRoutes
    let store: any Store
    let services: Services
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/invitations", .permission(.manageTesters), list)
        // Opening the answer's address again leads back to the list, never to a new invitation.
        routes.form(&router, "/console/invitations/new", .permission(.manageTesters), show: { try newPage($0, form: InvitationForm(), issues: []) },
                    submit: create)
        routes.get(&router, "/console/invitations/{id}/created", .permission(.manageTesters), created)
        routes.form(&router, "/console/invitations/{id}/revoke", .permission(.manageTesters), show: confirmRevocation, submit: revoke)
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let now = clock()
        let invitations = try services.invitations.invitations(for: try request.signedIn).reversed()
        let rows = invitations.map { invitation -> [HTML] in
            let status = invitation.status(at: now)
            let revoke: HTML = status == .active
                ? "<a href=\"/console/invitations/\(invitation.id)/revoke\">\(messages[.invitationsRevoke])<span class=\"visually-hidden\"> \(messages(.invitationsRevokeSubject, ["time": messages.time(invitation.createdAt)]))</span></a>"
                : .empty
            return [HTML("\(InvitationPages.status(status, messages))"), HTML("\(Language(rawValue: invitation.language)?.nativeName ?? invitation.language)"),
                    HTML("\(invitation.fixKeys.joined(separator: ", "))"),
                    HTML("\(messages(.invitationsUsesValue, ["made": messages.number(invitation.usesMade), "allowed": messages.number(invitation.usesAllowed)]))"),
                    messages.timeElement(invitation.expiresAt), HTML("\(invitation.createdBy)"), HTML("\(invitation.nameHint ?? "")"), revoke]
        }
        let table = DataTable(caption: messages[.invitationsCaption],
                              columns: [messages[.invitationsStatus], messages[.invitationsLanguage], messages[.invitationsFixes], messages[.invitationsUses],
                                        messages[.invitationsExpires], messages[.invitationsMadeBy], messages[.invitationsNote], ""],
                              rows: rows, emptyText: messages[.invitationsNone])
        return request.translatedPage(messages[.invitationsTitle], content: """
        <h1 class="heading-l">\(messages[.invitationsTitle])</h1>
        <p class="body">\(messages[.invitationsIntro])</p>
        <p class="body"><a class="button" href="/console/invitations/new">\(messages[.invitationsNew])</a></p>
        \(table.render())
        """)
    }

    func newPage(_ request: ConsoleRequest, form: InvitationForm, issues: [FieldIssue]) throws -> HTTPResponse {
        let messages = request.messages
        let fixes = try store.fixes(in: [.draft, .testing])
        let panels = try services.panels.panels(for: try request.signedIn)
        let warning: HTML = services.joining.programmeOperator.isConfigured ? .empty : WarningText(messages[.invitationsOperatorMissing]).render(messages)
        return request.translatedPage(messages[.invitationsNewTitle], issues: issues,
                                      backLink: BackLink(href: "/console/invitations", text: messages[.invitationsBack]), content: """
        <h1 class="heading-l">\(messages[.invitationsNewTitle])</h1>
        \(warning)
        \(request.form("/console/invitations/new", form.render(fixes: fixes, panels: panels, issues: issues, messages) + Button(messages[.invitationsCreate]).render()))
        """)
    }

    /// Makes the invitation and sends the browser to the page that shows its address once.
    func create(_ request: ConsoleRequest) throws -> HTTPResponse {
        let form = InvitationForm(request)
        var issues: [FieldIssue] = []
        guard let uses = form.usesNumber else {
            issues.append(FieldIssue(field: "uses", message: request.messages[.invitationsErrorUses]))
            return try newPage(request, form: form, issues: issues)
        }
        let base = PublicAddress.base(configured: routes.sessions.settings.publicURL, host: request.http.header("host"))
        let draft = InvitationService.Draft(nameHint: form.note.isEmpty ? nil : form.note, targetingKeys: FormFields.list(form.keys), fixKeys: form.fixes,
                                            panelIDs: form.panels,
                                            language: form.language.isEmpty ? nil : form.language, expiresIn: form.expires, uses: uses)
        switch try ServiceRefusal.attempt({ try services.invitations.create(draft, base: base, by: try request.signedIn) }) {
        case .success(let made):
            return try routes.reveal(["url": made.url], at: "/console/invitations/\(made.invitation.id)/created", request)
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return try newPage(request, form: form, issues: InvitationForm.fields(request.messages).issues(from: refusal.issues))
        }
    }

    /// The one page that shows a new invitation's address (`ConsoleRoutes.reveal`).
    func created(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        return try routes.revealed(request, next: (href: "/console/invitations", text: messages[.invitationsBack])) { kept in
            let invitation = try services.invitations.invitation(request.parameter("id"), for: try request.signedIn)
            let advice = messages.html(.invitationsLinkAdvice, ["time": messages.timeElement(invitation.expiresAt),
                                                                "uses": HTML("\(messages.number(invitation.usesAllowed))")])
            // No language links: following one would find the address taken.
            return request.translatedPage(messages[.invitationsCreatedTitle], banner: NotificationBanner(.success, heading: messages[.invitationsCreatedTitle]),
                                          switcher: false, content: """
            <h1 class="heading-l">\(messages[.invitationsCreatedTitle])</h1>
            <h2 class="heading-m" id="invitation-address">\(messages[.invitationsLinkHeading])</h2>
            <p class="secret">\(kept["url"] ?? "")</p>
            \(WarningText(messages[.invitationsLinkWarning]).render(messages))
            <p class="body">\(advice)</p>
            <p class="body"><a href="/console/invitations">\(messages[.invitationsBack])</a></p>
            """)
        }
    }

    func confirmRevocation(_ request: ConsoleRequest) throws -> HTTPResponse {
        let invitation = try services.invitations.invitation(request.parameter("id"), for: try request.signedIn)
        let messages = request.messages
        return request.translatedPage(messages[.invitationsRevokeTitle], backLink: BackLink(href: "/console/invitations", text: messages[.invitationsBack]),
                                      content: """
        <h1 class="heading-l">\(messages[.invitationsRevokeTitle])</h1>
        <p class="body">\(messages[.invitationsRevokeText])</p>
        \(request.form("/console/invitations/\(invitation.id)/revoke", Button(messages[.invitationsRevokeConfirm], kind: .warning).render()))
        """)
    }

    func revoke(_ request: ConsoleRequest) throws -> HTTPResponse {
        _ = try services.invitations.revoke(request.parameter("id"), by: try request.signedIn)
        return .seeOther("/console/invitations")
    }

    static func status(_ status: Invitation.Status, _ messages: Messages) -> String {
        switch status {
        case .active: messages[.invitationsStatusActive]
        case .used: messages[.invitationsStatusUsed]
        case .expired: messages[.invitationsStatusExpired]
        case .revoked: messages[.invitationsStatusRevoked]
        }
    }
}
