/// A link back to the previous step, above `main` (GOV.UK's back link).
public struct BackLink: Sendable {
    public var href: String
    /// The link's words; nil says "Back" in the page's language.
    public var text: String?

    public init(href: String, text: String? = nil) {
        self.href = href
        self.text = text
    }

    func render(_ messages: Messages) -> HTML { "<a href=\"\(href)\" class=\"back-link\">\(text ?? messages[.backLinkText])</a>" }
}
