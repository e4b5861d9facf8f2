import VouchConsoleKit
import VouchHTTP

extension ConsoleRoutes {
    /// Keeps a new secret for the page at `path` and sends the browser there (303), so a reload of that page repeats
    /// a GET, which finds the secret taken, and never the POST that made it (`SecretReveals`).
    func reveal(_ values: [String: String], at path: String, _ request: ConsoleRequest) throws -> HTTPResponse {
        guard let session = request.session else { throw Problem(status: 401, detail: "sign in to see this page") }
        sessions.reveals.keep(values, for: session, at: path, now: sessions.clock())
        return .seeOther(path)
    }

    /// The page showing what `reveal` kept for this request's address, or, when it was shown already or never kept
    /// here, a page that says so and leads to `next`.
    func revealed(_ request: ConsoleRequest, next: (href: String, text: String), page: ([String: String]) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let session = request.session, let values = sessions.reveals.take(for: session, at: request.path, now: sessions.clock()) else {
            let messages = request.messages
            return request.translatedPage(messages[.secretGoneTitle], content: """
            <h1 class="heading-l">\(messages[.secretGoneTitle])</h1>
            <p class="body">\(messages[.secretGoneText])</p>
            <p class="body"><a href="\(next.href)">\(next.text)</a></p>
            """)
        }
        return try page(values)
    }
}
