/// The signed-in header: who is signed in, the sections their role may open, and sign-out.
public struct Navigation: Sendable {
    public struct Item: Sendable {
        public var href: String
        public var label: String
        public var isCurrent: Bool

        public init(href: String, label: String, isCurrent: Bool = false) {
            self.href = href
            self.label = label
            self.isCurrent = isCurrent
        }
    }

    /// "Signed in as rita (release manager)", or "Signed in with your personal link" for a tester.
    public var signedInAs: String
    /// The language `signedInAs` and the items are written in, marked with `lang` where it is not the page's.
    public var wordsLanguage: Language
    public var items: [Item]
    /// Sign-out is a form, not a link: a GET must never change anything, and it needs the session's CSRF token.
    public var csrf: String

    public init(signedInAs: String, wordsLanguage: Language = .en, items: [Item], csrf: String) {
        self.signedInAs = signedInAs
        self.wordsLanguage = wordsLanguage
        self.items = items
        self.csrf = csrf
    }

    func render(_ messages: Messages) -> HTML {
        let links = items.map { item -> HTML in
            item.isCurrent ? "<li><a href=\"\(item.href)\" aria-current=\"page\">\(item.label)</a></li>"
                : "<li><a href=\"\(item.href)\">\(item.label)</a></li>"
        }
        let lang: HTML = wordsLanguage == messages.language ? .empty : " lang=\"\(wordsLanguage.rawValue)\""
        return """
        <nav class="navigation" aria-label="\(messages[.navigationLabel])">
        <ul class="navigation__list"\(lang)>\(links)</ul>
        </nav>
        <div class="header__account">
        <p class="header__who"\(lang)>\(signedInAs)</p>
        <form method="post" action="/console/sign-out" novalidate>
        \(Form.csrfField(csrf))
        <button type="submit" class="link-button">\(messages[.navigationSignOut])</button>
        </form>
        </div>
        """
    }
}
