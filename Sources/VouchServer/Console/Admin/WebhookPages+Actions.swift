import VouchConsole
import VouchDomain
import VouchHTTP
import VouchJSON

/// What an administrator does to a webhook from its page: each change through the API, then back to the page with a
/// success banner (Post/Redirect/Get). Disabling and deleting first say what they stop, on a page of their own.
extension WebhookPages {
    func sendTest(_ request: ConsoleRequest) throws -> HTTPResponse {
        try change(request, "POST", "/test", done: "tested")
    }

    func enable(_ request: ConsoleRequest) throws -> HTTPResponse {
        try change(request, "PATCH", body: .object(["enabled": .bool(true)]), done: "enabled")
    }

    func disable(_ request: ConsoleRequest) throws -> HTTPResponse {
        try change(request, "PATCH", body: .object(["enabled": .bool(false)]), done: "disabled")
    }

    func confirmDisable(_ request: ConsoleRequest) throws -> HTTPResponse {
        let endpoint = try endpoint(request)
        return confirmation(request, endpoint, verb: "Disable", action: "disable", consequences: [
            "It receives no events while it is disabled, not even a test event.",
            "Deliveries to it that are still waiting or retrying are cancelled.",
        ] + (endpoint.required ? ["It is required: a fix being promoted that waits for its answer fails its promotion, "
                                  + "and while it is disabled, promotions do not wait for it."] : []))
    }

    func confirmDelete(_ request: ConsoleRequest) throws -> HTTPResponse {
        let endpoint = try endpoint(request)
        return confirmation(request, endpoint, verb: "Delete", action: "delete", consequences: [
            "It receives no more events, and it cannot be enabled again: to send events there later, add it anew, with a new secret.",
            "Deliveries to it that are still waiting or retrying are cancelled; the record of past deliveries is kept.",
        ] + (endpoint.required ? ["It is required: a fix being promoted that waits for its answer fails its promotion. Later promotions no longer wait for it."] : []))
    }

    func delete(_ request: ConsoleRequest) throws -> HTTPResponse {
        _ = try change(request, "DELETE", done: "deleted")
        return .seeOther("/console/webhooks?done=deleted")
    }

    /// The API says which webhook the delivery belongs to; the answer returns to that webhook's page.
    func redeliver(_ request: ConsoleRequest) throws -> HTTPResponse {
        let answer = try call(request, "POST", "/v1/deliveries/\(ConsoleRoutes.percentEncoded(request.parameter("delivery")))/redeliver")
        let webhook = answer.json["webhook"]?.stringValue ?? request.parameter("id")
        return .seeOther("/console/webhooks/\(ConsoleRoutes.percentEncoded(webhook))?done=redelivered")
    }

    /// A confirmation page: what the action stops, in words, then the button that does it.
    private func confirmation(_ request: ConsoleRequest, _ endpoint: WebhookEndpoint, verb: String, action: String, consequences: [String]) -> HTTPResponse {
        let path = "/console/webhooks/\(endpoint.id)"
        let items = consequences.map { item -> HTML in "<li>\(item)</li>" }
        return request.page("\(verb) the webhook to \(endpoint.url)?", backLink: BackLink(href: path, text: "Back to the webhook"), content: """
        <h1 class="heading-l">\(verb) the webhook to \(endpoint.url)?</h1>
        <ul class="list">\(items)</ul>
        \(request.form(path + "/" + action, "<div class=\"button-group\">" + Button("\(verb) the webhook", kind: .warning).render()
                       + "<a href=\"\(path)\">Cancel<span class=\"visually-hidden\">: keep the webhook as it is</span></a></div>"))
        """)
    }

    /// Asks the API to change the route's webhook (`/v1/webhooks/{id}` + `suffix`), then returns to its page with the
    /// banner `done` chooses.
    private func change(_ request: ConsoleRequest, _ method: String, _ suffix: String = "", body: JSONValue? = nil, done: String) throws -> HTTPResponse {
        let endpoint = try endpoint(request)
        try call(request, method, "/v1/webhooks/\(endpoint.id)" + suffix, body: body)
        return .seeOther("/console/webhooks/\(endpoint.id)?done=\(done)")
    }

    /// Calls the API as the signed-in person; a refusal becomes the console's error page.
    @discardableResult
    private func call(_ request: ConsoleRequest, _ method: String, _ path: String, body: JSONValue? = nil) throws -> ConsoleAPI.Answer {
        let answer = api.call(method, path, body: body, as: try request.signedIn, requestID: request.http.requestID)
        guard answer.isSuccess else { throw answer.refusal }
        return answer
    }
}
