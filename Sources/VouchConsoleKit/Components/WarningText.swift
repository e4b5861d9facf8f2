/// A warning said in words ("Warning" is read first by screen readers; the "!" is only drawn).
public struct WarningText: Sendable {
    public var text: String

    public init(_ text: String) { self.text = text }

    public func render(_ messages: Messages = .english) -> HTML {
        """
        <div class="warning-text">
        <span class="warning-text__icon" aria-hidden="true">!</span>
        <strong class="warning-text__text"><span class="visually-hidden">\(messages[.warningPrefix]) </span>\(text)</strong>
        </div>
        """
    }
}
