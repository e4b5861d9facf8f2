import VouchConsoleKit
import VouchHTTP

/// The page for a request the console cannot answer as asked: what happened in words, and where to go next.
package enum ConsoleErrorPage {
    package static func response(for problem: Problem, navigation: Navigation? = nil) -> HTTPResponse {
        let (title, advice) = words(for: problem.status)
        // The messages name their field in words already; the API's field name would be read out as code.
        let issues = problem.errors.map { issue -> HTML in "<li>\(Words.prose(issue.message))</li>" }
        let details: HTML = issues.isEmpty ? .empty : "<ul class=\"list\">\(issues)</ul>"
        let content: HTML = """
        <h1 class="heading-l">\(title)</h1>
        <p class="body">\(sentence(Words.prose(problem.detail)))</p>
        \(details)
        <p class="body">\(advice)</p>
        <p class="body"><a href="/console/">Go to the start of the console</a></p>
        """
        var headers = problem.headers
        headers.append(contentsOf: ConsoleHeaders.security)
        headers.append(ConsoleHeaders.noStore)
        return .html(Page(title: title, navigation: navigation, content: content).render(), status: problem.status, headers: headers)
    }

    /// The page for a console address no route answered (an unknown one, or a refusal before routing): with the
    /// signed-in person's navigation, so a mistyped address never leaves them without their sections and sign-out.
    package static func response(for problem: Problem, to request: HTTPRequest, sessions: ConsoleSessions?) -> HTTPResponse {
        let resolved = (try? sessions?.resolve(request)) ?? nil
        return response(for: problem, navigation: ConsoleNavigation.make(for: resolved, path: request.path))
    }

    private static func words(for status: Int) -> (String, String) {
        switch status {
        case 400: ("The form could not be read", "Go back, check what you entered and send it again.")
        case 401: ("You need to sign in", "Sign in again, or open your personal link again.")
        case 403: ("You cannot do this", "If you need to, ask an administrator of Vouch.")
        case 404, 405: ("Page not found", "If you typed the address, check it is correct.")
        case 409: ("This cannot be done now", "The page may show an older state. Go back and reload it to see the current one.")
        case 413: ("What you sent is too long", "Go back, shorten what you typed and send it again.")
        case 415: ("The form could not be read", "Send the form from the console's own page.")
        case 422: ("Check what you entered", "Go back and correct the fields listed.")
        case 429: ("Too many attempts", "Wait a minute, then try again.")
        case 503, 507: ("The console cannot save this now", "Nothing was changed. Try again in a few seconds.")
        default: ("Sorry, there is a problem with the service", "Nothing was changed. Try again later; the error is in the server's log.")
        }
    }

    /// The problem's detail as a sentence: starting with a capital letter and ending with a full stop.
    private static func sentence(_ detail: String) -> String {
        guard let first = detail.first else { return "" }
        let text = first.uppercased() + detail.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}
