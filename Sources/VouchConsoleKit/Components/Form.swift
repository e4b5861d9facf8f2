/// A POST form: `novalidate` because the server checks every field and explains what is wrong (browsers' own
/// validation bubbles are not read reliably by screen readers), and the session's CSRF token in a hidden field.
public struct Form: Sendable {
    public var action: String
    public var csrf: String
    public var content: HTML

    public init(action: String, csrf: String, content: HTML) {
        self.action = action
        self.csrf = csrf
        self.content = content
    }

    public func render() -> HTML {
        """
        <form method="post" action="\(action)" novalidate>
        \(Form.csrfField(csrf))
        \(content)
        </form>
        """
    }

    /// The name of the hidden field that carries the CSRF token.
    public static let csrfFieldName = "csrf"

    static func csrfField(_ csrf: String) -> HTML { "<input type=\"hidden\" name=\"\(csrfFieldName)\" value=\"\(csrf)\">" }

    /// A hidden field the next step needs (an idempotency key, the page a sign-in returns to).
    public static func hidden(_ name: String, _ value: String) -> HTML { "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">" }
}
