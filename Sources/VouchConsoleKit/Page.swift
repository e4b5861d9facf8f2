/// One console page: the document around `content`, the same on every page (docs/console.md, "Rendering").
///
/// The skip link comes first, then the header with the site name and the signed-in navigation, then `main` with
/// an optional back link, the error summary or a success banner, and the content, which starts with the page's one
/// `h1`. A page with problems has "Error: " at the start of its title, so a screen reader says so first.
public struct Page: Sendable {
    public var title: String
    public var issues: [FieldIssue]
    public var navigation: Navigation?
    public var backLink: BackLink?
    public var banner: NotificationBanner?
    public var content: HTML
    /// The words of the page's frame (skip link, error summary, footer) and its `lang`.
    public var messages: Messages
    /// Links to this page in the other languages; only on pages whose own words are all in the catalogs.
    public var languageSwitcher: LanguageSwitcher?
    /// The path of the console's stylesheet, which carries a hash of its content so browsers may cache it forever.
    public var stylesheetPath: String

    public init(title: String, issues: [FieldIssue] = [], navigation: Navigation? = nil, backLink: BackLink? = nil,
                banner: NotificationBanner? = nil, content: HTML, messages: Messages = .english, languageSwitcher: LanguageSwitcher? = nil,
                stylesheetPath: String = Stylesheet.path) {
        self.title = title
        self.issues = issues
        self.navigation = navigation
        self.backLink = backLink
        self.banner = banner
        self.content = content
        self.messages = messages
        self.languageSwitcher = languageSwitcher
        self.stylesheetPath = stylesheetPath
    }

    /// The `<title>`: "Error: " when the page shows problems, then the page's subject, then the product. The product is
    /// named here only, so a subject never names it: the page headed "Welcome to Vouch" has the subject "Welcome".
    public var documentTitle: String { (issues.isEmpty ? "" : messages[.pageErrorPrefix] + " ") + title + " – Vouch" }

    public func render() -> String {
        let page: HTML = """
        <!DOCTYPE html>
        <html lang="\(messages.language.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(documentTitle)</title>
        <link rel="stylesheet" href="\(stylesheetPath)">
        </head>
        <body>
        <a href="#main-content" class="skip-link">\(messages[.pageSkipLink])</a>
        <header class="header">
        <div class="width header__inner">
        \(languageSwitcher?.render(messages))
        <a href="/console/" class="header__brand">Vouch<span class="visually-hidden"> \(messages[.pageHomeLink])</span></a>
        \(navigation?.render(messages))
        </div>
        </header>
        <div class="width">
        \(backLink?.render(messages))
        <main id="main-content" tabindex="-1">
        \(issues.isEmpty ? banner?.render(messages) : ErrorSummary(issues: issues).render(messages))
        \(content)
        </main>
        </div>
        <footer class="footer">
        <div class="width">
        <p><a href="/console/accessibility">\(messages[.pageAccessibilityLink])</a></p>
        </div>
        </footer>
        </body>
        </html>

        """
        return page.markup
    }
}
