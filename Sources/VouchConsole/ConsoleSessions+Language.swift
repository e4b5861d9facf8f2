import VouchConsoleKit
import VouchHTTP

extension ConsoleSessions {
    /// The language a request's pages are written in: hers if she chose one, else her browser's, else the setting's.
    func language(of request: HTTPRequest) -> Language {
        LanguageNegotiation.language(query: request.query[LanguageNegotiation.queryName], cookie: request.cookie(LanguageNegotiation.cookieName),
                                     acceptLanguage: request.header("accept-language"),
                                     default: Language(rawValue: settings.defaultLanguage) ?? .en)
    }

    /// The cookie that keeps the language she chose with a switcher link (`?lang=`) for the pages that follow, for a
    /// year; nil when the request chose none. It says nothing about her but the language, so it needs no session.
    func chosenLanguage(of request: HTTPRequest) -> (name: String, value: String)? {
        guard let chosen = request.query[LanguageNegotiation.queryName].flatMap(Language.init(rawValue:)),
              request.cookie(LanguageNegotiation.cookieName) != chosen.rawValue else { return nil }
        return ConsoleSessions.cookie(LanguageNegotiation.cookieName, chosen.rawValue, maxAge: 365 * 86_400, secure: isSecure(request))
    }

    /// Links to the request's page in each language: its path and query, with `lang` set.
    static func languageSwitcher(for request: HTTPRequest, current: Language) -> LanguageSwitcher {
        let path = ConsoleRoutes.percentEncoded(request.path)
        let query = request.query.filter { $0.key != LanguageNegotiation.queryName }.sorted { $0.key < $1.key }
            .map { ConsoleRoutes.percentEncoded($0.key) + "=" + ConsoleRoutes.percentEncoded($0.value) }
        return LanguageSwitcher(current: current) { language in
            path + "?" + (query + [LanguageNegotiation.queryName + "=" + language.rawValue]).joined(separator: "&")
        }
    }
}
