import VouchConsoleKit
import VouchDomain
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

extension ConsoleSessions {
    /// The language of a page for someone whose preference is known (hers, or her invitation's): her choice on this
    /// browser first, then that preference, then her browser's, then the setting's.
    func language(of request: HTTPRequest, preferring preferred: Language?) -> Language {
        LanguageNegotiation.language(query: request.query[LanguageNegotiation.queryName], cookie: request.cookie(LanguageNegotiation.cookieName),
                                     acceptLanguage: preferred.map(\.rawValue) ?? request.header("accept-language"),
                                     default: Language(rawValue: settings.defaultLanguage) ?? .en)
    }
}

extension ConsoleSessions {
    /// The language of a signed-in person's pages: a tester's own preference (the language she joined in) comes before
    /// her browser's; her choice on this browser comes first.
    func language(of request: HTTPRequest, for principal: Principal?) -> Language {
        guard let testerID = principal?.testerID, request.query[LanguageNegotiation.queryName] == nil,
              request.cookie(LanguageNegotiation.cookieName) == nil,
              let preferred = (try? store.tester(testerID))??.consent.language.flatMap(Language.init(rawValue:)) else { return language(of: request) }
        return preferred
    }
}
