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
        routes.get(&router, "/console/tokens/{id}/revoke", Self.access, confirmRevoke)
        routes.post(&router, "/console/tokens/{id}/revoke", Self.access, revoke)
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        let page = try AdminPages.page(request, key: \.id, fetch: store.tokens)
        let rows = page.items.map { token -> [HTML] in
            ["\(token.name)<br><span class=\"hint\">\(token.id)</span>", "\(token.principalName)", "\(TokenPages.roleWords(token))", state(of: token)]
        }
        let table = DataTable(caption: "All tokens", columns: ["Name", "Issued to", "Role", "Status"], rows: rows, emptyText: "No token.")
        let banner: NotificationBanner? = request.http.query["done"] == "revoked" ? NotificationBanner(.success, heading: "The token is revoked") : nil
        return request.page("Tokens", banner: banner, content: """
        <h1 class="heading-l">Tokens</h1>
        <p class="body">People sign in, and apps and scripts call Vouch, with a token. Each token is issued to a person or system (its principal) and has one role. The server keeps only a hash of each secret.</p>
        <p class="body"><a href="/console/tokens/new" class="button">Create a token</a></p>
        \(table.render())
        \(AdminPages.nextPageLink("/console/tokens", cursor: page.next, subject: "tokens"))
        """)
    }

    /// "Active since …" with a revoke link, or when it was revoked.
    private func state(of token: TokenRecord) -> HTML {
        if let revokedAt = token.revokedAt {
            return "\(StatusTag("Revoked").render()) on \(Words.timeElement(revokedAt)); created \(Words.timeElement(token.createdAt))"
        }
        return """
        \(StatusTag("Active", tone: .good).render()) since \(Words.timeElement(token.createdAt))
        <br><a href="/console/tokens/\(token.id)/revoke">Revoke<span class="visually-hidden"> the token \(token.name)</span></a>
        """
    }

    /// "release manager", or "tester t_… (bound to that tester)".
    static func roleWords(_ token: TokenRecord) -> String {
        let role = Words.role(token.role)
        return token.testerID.map { "\(role), for tester \($0)" } ?? role
    }
}
