/// A box before the page heading: "Success" after something was done (announced at once), or "Important" for what
/// the person should know first. Never for validation errors, which have the error summary.
public struct NotificationBanner: Sendable {
    public enum Kind: Sendable {
        case success
        case important
    }

    public var kind: Kind
    public var heading: String
    public var body: HTML

    public init(_ kind: Kind, heading: String, body: HTML = .empty) {
        self.kind = kind
        self.heading = heading
        self.body = body
    }

    /// The title is in the page's language: Orca read "Success" in English on a Japanese page.
    func render(_ messages: Messages = .english) -> HTML {
        let title = messages[kind == .success ? .bannerSuccess : .bannerImportant]
        let role: HTML = kind == .success ? "role=\"alert\"" : "role=\"region\" aria-labelledby=\"banner-title\""
        return """
        <div class="banner\(kind == .success ? " banner--success" : "")" \(role) tabindex="-1"\(kind == .success ? " autofocus" : "")>
        <h2 class="banner__title" id="banner-title">\(title)</h2>
        <div class="banner__content">
        <p class="banner__heading">\(heading)</p>
        \(body)
        </div>
        </div>
        """
    }
}
