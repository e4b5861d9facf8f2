import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices

/// Revoking a token: a page that says what stops working and for whom, then the revocation itself.
extension TokenPages {
    func confirmRevoke(_ request: ConsoleRequest) throws -> HTTPResponse {
        renderConfirmation(request, token: try activeToken(request), refusal: nil)
    }

    func revoke(_ request: ConsoleRequest) throws -> HTTPResponse {
        let token = try activeToken(request)
        let principal = try request.signedIn
        // The last admin token is kept (nobody could make tokens again): the page says so in the API's words.
        if case .failure(let refusal) = try ServiceRefusal.attempt({ try services.tokens.revoke(token.id, by: principal) }) {
            guard refusal.status == 409 else { throw refusal.problem }
            return renderConfirmation(request, token: token, refusal: refusal.detail)
        }
        // Revoking one's own token ended this session with it.
        return .seeOther(principal.tokenID == token.id ? "/console/signed-out" : "/console/tokens?done=revoked")
    }

    private func renderConfirmation(_ request: ConsoleRequest, token: TokenRecord, refusal: String?) -> HTTPResponse {
        let isOwn = request.principal?.tokenID == token.id
        var consequences = [
            token.role == .sdk ? "The app that uses it can no longer read flags, and gets the default value of every flag."
                : "The person, app or script that uses it is refused from now on.",
            "Every console session signed in with it ends at once.",
            "A revoked token cannot be used again: if it is still needed, create a new one and hand it over.",
        ]
        if isOwn { consequences.insert("This is the token you signed in with: you will be signed out.", at: 0) }
        let banner = refusal.map { words in
            NotificationBanner(.important, heading: "The token was not revoked", body: "<p class=\"body\">Vouch refused: \(Words.prose(words)).</p>")
        }
        let items = consequences.map { item -> HTML in "<li>\(item)</li>" }
        let form: HTML = refusal == nil
            ? request.form("/console/tokens/\(token.id)/revoke", "<div class=\"button-group\">" + Button("Revoke the token", kind: .warning).render()
                           + "<a href=\"/console/tokens\">Cancel<span class=\"visually-hidden\">: keep the token</span></a></div>")
            : "<p class=\"body\"><a href=\"/console/tokens/new\">Create a token</a> or <a href=\"/console/tokens\">go back to all tokens</a>.</p>"
        var response = request.page("Revoke the token \(token.name)?", backLink: BackLink(href: "/console/tokens", text: "All tokens"), banner: banner,
                                    content: """
        <h1 class="heading-l">Revoke the token \(token.name)?</h1>
        \(SummaryList([SummaryList.Row("Issued to", text: token.principalName), SummaryList.Row("Role", text: TokenPages.roleWords(token)),
                       SummaryList.Row("Created", "by \(token.createdBy) on \(Words.timeElement(token.createdAt))"),
                       SummaryList.Row("Id", text: token.id)]).render())
        <h2 class="heading-m">What stops working</h2>
        <ul class="list">\(items)</ul>
        \(form)
        """)
        if refusal != nil { response.status = 409 }
        return response
    }

    /// The token the route names, while it is active; a revoked or unknown one is a 404.
    private func activeToken(_ request: ConsoleRequest) throws -> TokenRecord {
        let id = request.parameter("id")
        guard let token = try store.activeTokens().first(where: { $0.id == id }) else {
            throw Problem(status: 404, detail: "there is no active token \(id): it may have been revoked already")
        }
        return token
    }
}
