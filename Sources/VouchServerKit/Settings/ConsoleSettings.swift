import VouchServices

/// The web console's settings (`console.*`; docs/console.md, "Sessions").
public struct ConsoleSettings: Sendable {
    /// Whether `/console/` is served at all.
    public var enabled: Bool
    /// The address people open, for testers' personal links (`https://vouch.example.com`); empty means `http://` and
    /// the request's `Host`. Over `https`, session cookies are marked `Secure`.
    public var publicURL: String
    /// A session unused this long ends. 24 hours by default: WCAG 2.2.1 (Timing Adjustable) lets a time limit stand
    /// without a warning only when it is longer than 20 hours, and a tester must never lose her answers to it.
    public var sessionIdleSeconds: Int
    /// No activity keeps a session past this.
    public var sessionLifetimeSeconds: Int
    /// How long a new personal link works, unless its creator says otherwise.
    public var linkValidSeconds: Int
    /// The language tag (`en`, `ja`) of pages for someone who chose none and whose browser names none of the console's.
    public var defaultLanguage: String
    /// Sign-in through the organisation's identity provider, and whether a token may still be used.
    public var oidc: OIDCSettings

    /// The console's languages, as `console.default_language` accepts them; the console's `Language` has the same.
    public static let languages = InvitationService.languages

    /// What a personal link's validity may be: from an hour to 90 days.
    public static let linkValidRange = LinkService.validRange

    /// Each default is the configuration's (`DaemonSettings`).
    public init(enabled: Bool = DaemonConfiguration.defaults.boolean("console.enabled"),
                publicURL: String = DaemonConfiguration.defaults["console.public_url"],
                sessionIdleSeconds: Int = DaemonConfiguration.defaults.seconds("console.session_idle_timeout"),
                sessionLifetimeSeconds: Int = DaemonConfiguration.defaults.seconds("console.session_lifetime"),
                linkValidSeconds: Int = DaemonConfiguration.defaults.seconds("console.link_valid_for"),
                defaultLanguage: String = DaemonConfiguration.defaults["console.default_language"],
                oidc: OIDCSettings = OIDCSettings()) {
        self.enabled = enabled
        self.publicURL = publicURL
        self.sessionIdleSeconds = sessionIdleSeconds
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        self.linkValidSeconds = linkValidSeconds
        self.defaultLanguage = defaultLanguage
        self.oidc = oidc
    }

    /// Whether the console is reached over TLS as configured; a proxy may also say so per request (`X-Forwarded-Proto`).
    package var isPublicURLSecure: Bool { publicURL.lowercased().hasPrefix("https://") }
}
