/// A secret the server keeps only as a hash, shown on the one page that answers its creation: a heading that names
/// it, the value in a box that wraps anywhere (so 320 CSS pixels never scroll sideways), and a warning in words that
/// it will not be shown again.
public struct OneTimeSecret: Sendable {
    /// What the secret is, such as "Signing secret"; the heading a screen reader finds it by.
    public var label: String
    public var value: String
    /// Where to keep it, such as "in the receiver's configuration".
    public var keepAdvice: String

    public init(label: String, value: String, keepAdvice: String) {
        self.label = label
        self.value = value
        self.keepAdvice = keepAdvice
    }

    public func render() -> HTML {
        """
        <h2 class="heading-m" id="one-time-secret">\(label)</h2>
        <p class="secret"><code>\(value)</code></p>
        \(WarningText("This is the only time the \(label.lowercased()) is shown: it will not be shown again. Copy it now and keep it \(keepAdvice).").render())
        """
    }
}
