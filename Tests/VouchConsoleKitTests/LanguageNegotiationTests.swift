import Testing
import VouchConsoleKit

/// Which language a request gets: her choice (address, then cookie), else her browser's, else the setting's.
struct LanguageNegotiationTests {
    @Test(arguments: [
        ("ja", "en", "en", Language.en, Language.ja),
        ("xx", "ja", "en", .en, .ja),
        (nil, "ja", "en-GB", .en, .ja),
        (nil, "de", "en-GB", .ja, .en),
        (nil, nil, "ja-JP,ja;q=0.9", .en, .ja),
        (nil, nil, "fr", .ja, .ja),
        (nil, nil, nil, .ja, .ja),
        (nil, nil, "", .en, .en),
    ] as [(String?, String?, String?, Language, Language)])
    func herChoiceComesBeforeHerBrowserBeforeTheSetting(query: String?, cookie: String?, acceptLanguage: String?, fallback: Language,
                                                       expected: Language) {
        #expect(LanguageNegotiation.language(query: query, cookie: cookie, acceptLanguage: acceptLanguage, default: fallback) == expected)
    }

    @Test(arguments: [
        ("ja", Language.ja),
        ("JA-jp", .ja),
        ("en-US,en;q=0.9,ja;q=0.8", .en),
        ("fr-FR, ja;q=0.5, en;q=0.4", .ja),
        ("en;q=0.2, ja;q=0.7", .ja),
        ("ja;q=0, en;q=0.1", .en),
        ("en;q=0.5, ja;q=0.5", .en),
        ("de, ja ; q=0.3", .ja),
        ("ja;q=2, en;q=0.1", .en),
        ("ja;q=abc, en", .en),
    ] as [(String, Language)])
    func theBrowsersHighestQualityAmongOursWins(header: String, expected: Language) {
        #expect(LanguageNegotiation.preferred(acceptLanguage: header) == expected)
    }

    @Test(arguments: ["", "*", "fr, de;q=0.9", "ja;q=0, en;q=0", ",,;q=1", "jav, english"])
    func aHeaderNamingNoneOfOursLeavesItToTheSetting(header: String) {
        #expect(LanguageNegotiation.preferred(acceptLanguage: header) == nil)
    }
}
