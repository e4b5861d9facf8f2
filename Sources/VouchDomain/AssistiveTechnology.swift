/// The assistive technologies testers use (docs/lifecycle.md, "Feedback"); which one a person uses is health data (docs/privacy.md).
public enum AssistiveTechnology: String, Sendable, CaseIterable, Codable {
    case voiceover
    case talkback
    // Desktop screen readers, tested on the web together with a browser.
    case nvda
    case jaws
    case narrator
    case orca
    case chromevox
    case switchControl = "switch_control"
    case switchAccess = "switch_access"
    case voiceControl = "voice_control"
    case voiceAccess = "voice_access"
    case brailleDisplay = "braille_display"
    case screenMagnifier = "screen_magnifier"
    case largeText = "large_text"
    case other

    public static let allowedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// The name people say ("VoiceOver"), for status lines.
    public var displayName: String {
        switch self {
        case .voiceover: "VoiceOver"
        case .talkback: "TalkBack"
        case .nvda: "NVDA"
        case .jaws: "JAWS"
        case .narrator: "Narrator"
        case .orca: "Orca"
        case .chromevox: "ChromeVox"
        case .switchControl: "Switch Control"
        case .switchAccess: "Switch Access"
        case .voiceControl: "Voice Control"
        case .voiceAccess: "Voice Access"
        case .brailleDisplay: "braille display"
        case .screenMagnifier: "screen magnifier"
        case .largeText: "large text"
        case .other: "other assistive technology"
        }
    }
}

/// One technology a tester uses, on one platform, at one version (`voiceover:ios:18.2`); on the web, with the browser
/// it is used with (`nvda:web:2024.4:firefox`), since a screen reader and a browser are tested together.
public struct AssistiveTechProfile: Sendable, Equatable, Hashable {
    public var technology: AssistiveTechnology
    public var platform: Platform
    public var version: String?
    /// Only on the web.
    public var browser: Browser?

    public init(technology: AssistiveTechnology, platform: Platform, version: String? = nil, browser: Browser? = nil) {
        self.technology = technology
        self.platform = platform
        self.version = version
        self.browser = browser
    }

    public static let format = "technology:platform[:version[:browser]], such as voiceover:ios:18.2 or nvda:web:2024.4:firefox "
        + "(technologies: \(AssistiveTechnology.allowedList); platforms: \(Platform.allowedList); browsers, on the web only: \(Browser.allowedList))"
    public static let maxVersionLength = 32

    /// Parses the CLI's `voiceover:ios:18.2` form; the version may be left empty before a browser (`nvda:web::firefox`).
    public init(parsing text: String, field: String) throws(FieldError) {
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let technology = AssistiveTechnology(rawValue: parts[0]), let platform = Platform(rawValue: parts[1]) else {
            throw FieldError(field: field, message: "'\(text)' is not \(AssistiveTechProfile.format)")
        }
        let version = parts.count >= 3 && !(parts[2].isEmpty && parts.count == 4) ? parts[2] : nil
        if let version, version.isEmpty || version.count > AssistiveTechProfile.maxVersionLength {
            throw FieldError(field: field, message: "the version in '\(text)' must be 1 to \(AssistiveTechProfile.maxVersionLength) characters")
        }
        var browser: Browser?
        if parts.count == 4 {
            guard let named = Browser(rawValue: parts[3]) else {
                throw FieldError(field: field, message: "the browser in '\(text)' must be one of \(Browser.allowedList)")
            }
            browser = named
        }
        self.init(technology: technology, platform: platform, version: version, browser: browser)
        if let problem = browserProblem { throw FieldError(field: field, message: problem) }
    }

    /// Why the browser does not fit the platform, or nil: a browser is named on the web only.
    public var browserProblem: String? {
        guard browser != nil, platform != .web else { return nil }
        return "a browser is named only for the web platform, not \(platform.rawValue)"
    }
}
