import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchStore

/// The page for a request the console cannot answer as asked: what happened in words, and where to go next.
package enum ConsoleErrorPage {
    /// The problem's detail and field problems are the services' English prose: on a page in another language they
    /// say `lang="en"`, so a screen reader reads them in an English voice.
    package static func response(for problem: Problem, navigation: Navigation? = nil, messages: Messages = .english,
                                 languageSwitcher: LanguageSwitcher? = nil) -> HTTPResponse {
        let (title, advice) = words(for: problem.status)
        let prose: HTML = messages.language == .en ? .empty : " lang=\"en\""
        // The messages name their field in words already; the API's field name would be read out as code.
        let issues = problem.errors.map { issue -> HTML in "<li>\(Words.prose(issue.message))</li>" }
        let details: HTML = issues.isEmpty ? .empty : "<ul class=\"list\"\(prose)>\(issues)</ul>"
        let content: HTML = """
        <h1 class="heading-l">\(messages[title])</h1>
        <p class="body"\(prose)>\(sentence(Words.prose(problem.detail)))</p>
        \(details)
        <p class="body">\(messages[advice])</p>
        <p class="body"><a href="/console/">\(messages[.errorPageStart])</a></p>
        """
        var headers = problem.headers
        headers.append(contentsOf: ConsoleHeaders.security)
        headers.append(ConsoleHeaders.noStore)
        let page = Page(title: messages[title], navigation: navigation, content: content, messages: messages, languageSwitcher: languageSwitcher)
        return .html(page.render(), status: problem.status, headers: headers)
    }

    /// The page for a request answered with a problem, in the request's language, with the signed-in person's navigation.
    static func response(for problem: Problem, to request: HTTPRequest, resolved: (session: ConsoleSession, principal: Principal)?,
                         sessions: ConsoleSessions) -> HTTPResponse {
        let messages = Messages(sessions.language(of: request))
        return response(for: problem, navigation: ConsoleNavigation.make(for: resolved, path: request.path, messages: messages), messages: messages,
                        languageSwitcher: ConsoleSessions.languageSwitcher(for: request, current: messages.language))
    }

    /// The page for a console address no route answered (an unknown one, or a refusal before routing): with the
    /// signed-in person's navigation, so a mistyped address never leaves them without their sections and sign-out.
    package static func response(for problem: Problem, to request: HTTPRequest, sessions: ConsoleSessions?) -> HTTPResponse {
        guard let sessions else { return response(for: problem) }
        return response(for: problem, to: request, resolved: (try? sessions.resolve(request)) ?? nil, sessions: sessions)
    }

    private static func words(for status: Int) -> (MessageKey, MessageKey) {
        switch status {
        case 400: (.errorPageBadForm, .errorPageBadFormAdvice)
        case 401: (.errorPageSignIn, .errorPageSignInAdvice)
        case 403: (.errorPageForbidden, .errorPageForbiddenAdvice)
        case 404, 405: (.errorPageNotFound, .errorPageNotFoundAdvice)
        case 409: (.errorPageConflict, .errorPageConflictAdvice)
        case 413: (.errorPageTooLong, .errorPageTooLongAdvice)
        case 415: (.errorPageBadForm, .errorPageWrongFormAdvice)
        case 422: (.errorPageCheck, .errorPageCheckAdvice)
        case 429: (.errorPageTooMany, .errorPageTooManyAdvice)
        case 503, 507: (.errorPageUnavailable, .errorPageUnavailableAdvice)
        default: (.errorPageFailed, .errorPageFailedAdvice)
        }
    }

    /// The problem's detail as a sentence: starting with a capital letter and ending with a full stop.
    private static func sentence(_ detail: String) -> String {
        guard let first = detail.first else { return "" }
        let text = first.uppercased() + detail.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}
