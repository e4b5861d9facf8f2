/// The editable fields of a fix as a client sent them; nil means "not given".
public struct FixDraft: Sendable, Equatable {
    public var key: String?
    public var title: String?
    public var description: String??
    public var uiArea: String?
    public var platforms: [String]?
    public var wcag: [String]?
    public var expectedAnnouncement: String??
    /// The language tag the fix's text is written in; nil keeps the fix's, or takes the default on creation.
    public var language: String?

    public init(
        key: String? = nil, title: String? = nil, description: String?? = nil, uiArea: String? = nil,
        platforms: [String]? = nil, wcag: [String]? = nil, expectedAnnouncement: String?? = nil, language: String? = nil
    ) {
        self.key = key
        self.title = title
        self.description = description
        self.uiArea = uiArea
        self.platforms = platforms
        self.wcag = wcag
        self.expectedAnnouncement = expectedAnnouncement
        self.language = language
    }
}
