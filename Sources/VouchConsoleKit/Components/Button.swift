/// A submit button. The kind is shown by colour and also by the words, which always say what happens.
public struct Button: Sendable {
    public enum Kind: String, Sendable {
        case primary = "button"
        case secondary = "button button--secondary"
        /// For what turns something off or cannot be undone (pause, roll back, withdraw).
        case warning = "button button--warning"
    }

    public var text: String
    public var kind: Kind
    /// A form field sent with the button, when one form has several buttons.
    public var name: String?
    public var value: String?

    public init(_ text: String, kind: Kind = .primary, name: String? = nil, value: String? = nil) {
        self.text = text
        self.kind = kind
        self.name = name
        self.value = value
    }

    public func render() -> HTML {
        let field: HTML = if let name, let value { " name=\"\(name)\" value=\"\(value)\"" } else { .empty }
        return "<button type=\"submit\" class=\"\(kind.rawValue)\"\(field)>\(text)</button>"
    }
}
