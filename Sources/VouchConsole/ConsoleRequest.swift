import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchStore

/// What a console handler knows about its request: the route's parameters, the session and the person behind it,
/// and, for a POST, the form (whose CSRF token has already been checked).
struct ConsoleRequest: Sendable {
    let http: HTTPRequest
    let parameters: RouteParameters
    let session: ConsoleSession?
    let principal: Principal?
    let form: FormData
    /// The words of the pages translated so far, in the language chosen for this request (`LanguageNegotiation`).
    let messages: Messages

    var path: String { http.path }
    var csrf: String { session?.csrf ?? "" }

    /// The signed-in person; routes that need one are only reached with one.
    var signedIn: Principal {
        get throws {
            guard let principal else { throw Problem(status: 401, detail: "sign in to see this page") }
            return principal
        }
    }

    func parameter(_ name: String) -> String { parameters[name] }

    /// The form's value, trimmed of surrounding blanks, or "" when the field was not sent.
    func field(_ name: String) -> String {
        (form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension ConsoleRequest {
    /// A console page for this request, with the signed-in navigation. A page that shows problems answers 422, so
    /// scripts and tests can tell it from a page that accepted the form; browsers show both alike.
    /// Its words all come from the catalogs: in the request's language, with `<html lang>` and the links to
    /// the same page in the other languages (docs/console.md, "Languages"), unless `switcher` is false: a page shown
    /// once, whose address cannot show it again, offers no link that would lose it.
    func translatedPage(_ title: String, issues: [FieldIssue] = [], backLink: BackLink? = nil, banner: NotificationBanner? = nil,
                        switcher: Bool = true, content: HTML) -> HTTPResponse {
        let navigation = principal.map { ConsoleNavigation.make(for: $0, csrf: csrf, path: path, messages: messages) }
        let page = Page(title: title, issues: issues, navigation: navigation, backLink: backLink, banner: banner, content: content,
                        messages: messages, languageSwitcher: switcher ? languageSwitcher : nil)
        return .html(page.render(), status: issues.isEmpty ? 200 : 422)
    }

    /// Links to this page in each language.
    var languageSwitcher: LanguageSwitcher { ConsoleSessions.languageSwitcher(for: http, current: messages.language) }

    /// A form posting to `action` with this session's CSRF token.
    func form(_ action: String, _ content: HTML) -> HTML {
        Form(action: action, csrf: csrf, content: content).render()
    }
}

extension ConsoleRequest {
    /// The same request answered in another language.
    func speaking(_ language: Language) -> ConsoleRequest {
        ConsoleRequest(http: http, parameters: parameters, session: session, principal: principal, form: form, messages: Messages(language))
    }
}
