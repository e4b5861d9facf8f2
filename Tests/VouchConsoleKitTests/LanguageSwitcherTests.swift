import Testing
@testable import VouchConsoleKit

/// Each page says its language, and offers the others named in themselves.
struct LanguageSwitcherTests {
    static func page(_ language: Language) -> String {
        Page(title: "x", content: "<h1>x</h1>", messages: Messages(language),
             languageSwitcher: LanguageSwitcher(current: language) { "/console/?lang=\($0.rawValue)" }).render()
    }

    @Test func aJapanesePageSaysSoAndItsFrameIsJapanese() {
        let html = Self.page(.ja)
        #expect(html.contains("<html lang=\"ja\">"))
        #expect(html.contains(">メインコンテンツへ移動</a>"))
        #expect(!html.contains("Skip to main content"))
    }

    @Test func eachLanguageIsNamedInItselfWithItsOwnLangAndTheCurrentOneIsMarked() {
        let html = Self.page(.ja)
        #expect(html.contains("<nav class=\"language-switcher\" aria-label=\"言語\">"))
        #expect(html.contains("<li><a href=\"/console/?lang=ja\" lang=\"ja\" hreflang=\"ja\" aria-current=\"true\">日本語</a></li>"))
        #expect(html.contains("<li><a href=\"/console/?lang=en\" lang=\"en\" hreflang=\"en\">English</a></li>"))
        let english = Self.page(.en)
        #expect(english.contains("<html lang=\"en\">"))
        #expect(english.contains("hreflang=\"en\" aria-current=\"true\">English</a>"))
        #expect(english.contains("hreflang=\"ja\">日本語</a>"))
    }

    @Test func aPageWithoutASwitcherHasNone() {
        #expect(!Page(title: "x", content: "<h1>x</h1>").render().contains("language-switcher"))
    }

    @Test func staffNavigationOnAJapanesePageSaysItIsEnglish() {
        let navigation = Navigation(signedInAs: "Signed in as maria, maintainer", items: [.init(href: "/console/fixes", label: "Fixes")], csrf: "c")
        let html = Page(title: "x", navigation: navigation, content: "<h1>x</h1>", messages: Messages(.ja)).render()
        #expect(html.contains("<ul class=\"navigation__list\" lang=\"en\">"))
        #expect(html.contains("<p class=\"header__who\" lang=\"en\">Signed in as maria, maintainer</p>"))
        #expect(html.contains(">サインアウト</button>"))
    }
}
