/// Links to the same page in each language, each named in its own language and marked with it (`lang`, `hreflang`),
/// so a screen reader says "日本語" in a Japanese voice on an English page; the page's own language is
/// `aria-current`. Links, not a form: they work without script and each is one tab stop.
public struct LanguageSwitcher: Sendable {
    public var current: Language
    /// The address of this page in a language.
    public var href: @Sendable (Language) -> String

    public init(current: Language, href: @escaping @Sendable (Language) -> String) {
        self.current = current
        self.href = href
    }

    func render(_ messages: Messages) -> HTML {
        let links = Language.allCases.map { language -> HTML in
            let currentAttribute: HTML = language == current ? " aria-current=\"true\"" : .empty
            return """
            <li><a href="\(href(language))" lang="\(language.rawValue)" hreflang="\(language.rawValue)"\(currentAttribute)>\(language.nativeName)</a></li>
            """
        }
        return """
        <nav class="language-switcher" aria-label="\(messages[.languageSwitcherLabel])">
        <ul class="language-switcher__list">\(links)</ul>
        </nav>
        """
    }
}
