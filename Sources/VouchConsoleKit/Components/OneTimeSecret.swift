/// A secret the server keeps only as a hash, shown on the one page that answers its creation: a heading that names
/// it, the value in a box that wraps anywhere (so 320 CSS pixels never scroll sideways), and a warning in words that
/// it will not be shown again.
public struct OneTimeSecret: Sendable {
    /// What the secret is, such as "Signing secret"; the heading a screen reader finds it by.
    public var label: String
    public var value: String
    /// Where to keep it, such as "in the receiver's configuration".
    public var keepAdvice: String
    /// The whole warning, in the page's language; nil says it in English from the label and `keepAdvice`.
    public var warning: String?

    public init(label: String, value: String, keepAdvice: String, warning: String? = nil) {
        self.label = label
        self.value = value
        self.keepAdvice = keepAdvice
        self.warning = warning
    }

    public func render(_ messages: Messages = .english) -> HTML {
        let words = warning ?? "This is the only time the \(label.lowercased()) is shown: it will not be shown again. Copy it now and keep it \(keepAdvice)."
        return """
        <h2 class="heading-m" id="one-time-secret">\(label)</h2>
        <p class="secret"><code>\(value)</code></p>
        \(WarningText(words).render(messages))
        """
    }
}
