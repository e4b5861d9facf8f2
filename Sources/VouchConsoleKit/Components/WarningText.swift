/// A warning said in words ("Warning" is read first by screen readers; the "!" is only drawn).
public struct WarningText: Sendable {
    public var text: String

    public init(_ text: String) { self.text = text }

    public func render() -> HTML {
        """
        <div class="warning-text">
        <span class="warning-text__icon" aria-hidden="true">!</span>
        <strong class="warning-text__text"><span class="visually-hidden">Warning: </span>\(text)</strong>
        </div>
        """
    }
}
