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

/// One technology a tester uses, on one platform, at one version (`voiceover:ios:18.2`).
public struct AssistiveTechProfile: Sendable, Equatable, Hashable {
    public var technology: AssistiveTechnology
    public var platform: Platform
    public var version: String?

    public init(technology: AssistiveTechnology, platform: Platform, version: String? = nil) {
        self.technology = technology
        self.platform = platform
        self.version = version
    }

    public static let format = "technology:platform[:version], such as voiceover:ios:18.2 (technologies: \(AssistiveTechnology.allowedList); platforms: \(Platform.allowedList))"

    /// Parses the CLI's `voiceover:ios:18.2` form.
    public init(parsing text: String, field: String) throws(FieldError) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let technology = AssistiveTechnology(rawValue: parts[0]), let platform = Platform(rawValue: parts[1]) else {
            throw FieldError(field: field, message: "'\(text)' is not \(AssistiveTechProfile.format)")
        }
        let version = parts.count == 3 ? parts[2] : nil
        if let version, version.isEmpty || version.count > 32 {
            throw FieldError(field: field, message: "the version in '\(text)' must be 1 to 32 characters")
        }
        self.init(technology: technology, platform: platform, version: version)
    }
}
