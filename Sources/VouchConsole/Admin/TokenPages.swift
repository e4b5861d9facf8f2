import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// `/console/tokens`: API tokens with their principals and roles, the form that creates one (its secret shown once),
/// and revocation after a confirmation (administrators only, as in the API).
struct TokenPages {
    let routes: ConsoleRoutes
    let store: any Store
    let services: Services

    static let access = ConsoleAccess.permission(.manageTokens)

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/tokens", Self.access, list)
        routes.get(&router, "/console/tokens/new", Self.access, newForm)
        routes.post(&router, "/console/tokens/new", Self.access, create)
        routes.get(&router, "/console/tokens/{id}/created", Self.access, created)
        routes.get(&router, "/console/tokens/{id}/revoke", Self.access, confirmRevoke)
        routes.post(&router, "/console/tokens/{id}/revoke", Self.access, revoke)
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let page = try AdminPages.page(request, key: \.id, fetch: store.tokens)
        let rows = page.items.map { token -> [HTML] in
            ["\(token.name)<br><span class=\"hint\">\(token.id)</span>", "\(token.principalName)",
             "\(TokenPages.roleWords(token, messages))" + (token.eventStreams ? "" : "<br><span class=\"hint\">\(messages[.tokenPushOff])</span>")
                + (token.flagDefinitions ? "<br><span class=\"hint\">\(messages[.tokenFlagDefinitionsYes])</span>" : ""),
             state(of: token, messages)]
        }
        let table = DataTable(caption: messages[.tokensCaption],
                              columns: [messages[.tokensName], messages[.tokensIssuedTo], messages[.tokensRole], messages[.tokensStatus]],
                              rows: rows, emptyText: messages[.tokensNone])
        let banner: NotificationBanner? = request.http.query["done"] == "revoked" ? NotificationBanner(.success, heading: messages[.tokensRevokedBanner]) : nil
        return request.translatedPage(messages[.tokensTitle], banner: banner, content: """
        <h1 class="heading-l">\(messages[.tokensTitle])</h1>
        <p class="body">\(messages[.tokensIntro])</p>
        <p class="body"><a href="/console/tokens/new" class="button">\(messages[.tokensCreate])</a></p>
        \(table.render())
        \(AdminPages.nextPageLink("/console/tokens", cursor: page.next, subject: "tokens", next: messages[.tokensNextPage], hidden: messages[.tokensOfTokens]))
        """)
    }

    /// "Active since …" with a revoke link, or when it was revoked.
    private func state(of token: TokenRecord, _ messages: Messages) -> HTML {
        if let revokedAt = token.revokedAt {
            return messages.html(.tokensRevokedOn, ["revoked": StatusTag(messages[.tokensRevoked]).render(), "date": messages.staffTimeElement(revokedAt),
                                                    "created": messages.staffTimeElement(token.createdAt)])
        }
        let active = messages.html(.tokensActiveSince, ["active": StatusTag(messages[.tokensActive], tone: .good).render(),
                                                        "date": messages.staffTimeElement(token.createdAt)])
        return """
        \(active)
        <br><a href="/console/tokens/\(token.id)/revoke">\(messages[.tokensRevoke])<span class="visually-hidden"> \(messages(.tokensRevokeHidden, ["name": token.name]))</span></a>
        """
    }

    /// "release manager", or "tester t_… (bound to that tester)".
    static func roleWords(_ token: TokenRecord, _ messages: Messages = .english) -> String {
        roleWords(token.role, tester: token.testerID, messages)
    }

    static func roleWords(_ role: Role, tester: String?, _ messages: Messages) -> String {
        let words = messages.role(role)
        return tester.map { messages(.tokensRoleForTester, ["role": words, "tester": $0]) } ?? words
    }
}
