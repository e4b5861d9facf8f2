/// A link back to the previous step, above `main` (GOV.UK's back link).
public struct BackLink: Sendable {
    public var href: String
    public var text: String

    public init(href: String, text: String = "Back") {
        self.href = href
        self.text = text
    }

    func render() -> HTML { "<a href=\"\(href)\" class=\"back-link\">\(text)</a>" }
}
