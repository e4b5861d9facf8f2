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
        let messages = request.messages
        let isOwn = request.principal?.tokenID == token.id
        var consequences = [messages[token.role == .sdk ? .tokensRefusesSdk : .tokensRefuses], messages[.tokensSessionsEnd], messages[.tokensCannotReuse]]
        if isOwn { consequences.insert(messages[.tokensIsOwn], at: 0) }
        let banner = refusal.map { words in
            NotificationBanner(.important, heading: messages[.tokensNotRevoked],
                               body: "<p class=\"body\">\(messages.html(.tokensVouchRefused, ["reason": messages.prose(words)]))</p>")
        }
        let items = consequences.map { item -> HTML in "<li>\(item)</li>" }
        let createOrBack = messages.html(.tokensCreateOrBack, ["create": "<a href=\"/console/tokens/new\">\(messages[.tokensCreateLink])</a>",
                                                               "back": "<a href=\"/console/tokens\">\(messages[.tokensGoBack])</a>"])
        let form: HTML = refusal == nil
            ? request.form("/console/tokens/\(token.id)/revoke", "<div class=\"button-group\">" + Button(messages[.tokensRevokeButton], kind: .warning).render()
                           + "<a href=\"/console/tokens\">\(messages[.tokensCancel])<span class=\"visually-hidden\">\(messages[.tokensKeep])</span></a></div>")
            : "<p class=\"body\">\(createOrBack)</p>"
        let title = messages(.tokensRevokeQuestion, ["name": token.name])
        let created = messages.html(.tokensCreatedBy, ["name": "\(token.createdBy)", "date": messages.staffTimeElement(token.createdAt)])
        var response = request.translatedPage(title, backLink: BackLink(href: "/console/tokens", text: messages[.tokensCaption]), banner: banner,
                                              content: """
        <h1 class="heading-l">\(title)</h1>
        \(SummaryList([SummaryList.Row(messages[.tokensIssuedTo], text: token.principalName), SummaryList.Row(messages[.tokensRole], text: TokenPages.roleWords(token, messages)),
                       SummaryList.Row(messages[.tokensCreatedRow], created),
                       SummaryList.Row(messages[.tokensId], text: token.id)]).render(messages))
        <h2 class="heading-m">\(messages[.tokensWhatStops])</h2>
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
