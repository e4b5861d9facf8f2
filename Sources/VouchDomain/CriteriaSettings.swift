import Foundation

/// The rules a fix's evidence must meet before promotion (docs/lifecycle.md, "Criteria").
public struct CriteriaSettings: Sendable, Equatable {
    /// One assistive technology on one platform that must be covered by a passing tester.
    public struct Requirement: Sendable, Equatable, Hashable {
        public var platform: Platform
        public var technology: AssistiveTechnology

        public init(platform: Platform, technology: AssistiveTechnology) {
            self.platform = platform
            self.technology = technology
        }

        /// `ios:voiceover`.
        public var text: String { "\(platform.rawValue):\(technology.rawValue)" }
    }

    /// Each platform's screen reader: VoiceOver for iOS, TalkBack for Android, NVDA for the web (the most used desktop
    /// screen reader in WebAIM's surveys). Applied per platform the fix ships on.
    public static let platformScreenReaders = [Requirement(platform: .ios, technology: .voiceover), Requirement(platform: .android, technology: .talkback),
                                               Requirement(platform: .web, technology: .nvda)]

    public var minTestersPassed: Int
    public var requiredAssistiveTech: [Requirement]
    public var maxBlocking: Int
    public var minPassRatio: Double
    public var minSoakSeconds: Int
    public var approvalsRequired: Int
    public var approvalExpirySeconds: Int

    public init(minTestersPassed: Int = 2,
                requiredAssistiveTech: [Requirement] = CriteriaSettings.platformScreenReaders,
                maxBlocking: Int = 0, minPassRatio: Double = 0.8, minSoakSeconds: Int = 24 * 3_600, approvalsRequired: Int = 1,
                approvalExpirySeconds: Int = 7 * 86_400) {
        self.minTestersPassed = minTestersPassed
        self.requiredAssistiveTech = requiredAssistiveTech
        self.maxBlocking = maxBlocking
        self.minPassRatio = minPassRatio
        self.minSoakSeconds = minSoakSeconds
        self.approvalsRequired = approvalsRequired
        self.approvalExpirySeconds = approvalExpirySeconds
    }

    /// Parses `ios:voiceover,android:talkback`; an empty text means no technology is required.
    public static func requirements(parsing text: String, field: String) throws(FieldError) -> [Requirement] {
        var result: [Requirement] = []
        for part in text.split(separator: ",") {
            let pieces = part.split(separator: ":").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, let platform = Platform(rawValue: pieces[0]), let technology = AssistiveTechnology(rawValue: pieces[1]) else {
                throw FieldError(field: field, message: "'\(part)' is not platform:technology, such as ios:voiceover (platforms: \(Platform.allowedList); technologies: \(AssistiveTechnology.allowedList))")
            }
            result.append(Requirement(platform: platform, technology: technology))
        }
        return result
    }

    /// These settings with a fix's overrides applied.
    public func applying(_ overrides: CriteriaOverrides) -> CriteriaSettings {
        var settings = self
        if let value = overrides.minTestersPassed { settings.minTestersPassed = value }
        if let value = overrides.requiredAssistiveTech { settings.requiredAssistiveTech = value }
        if let value = overrides.maxBlocking { settings.maxBlocking = value }
        if let value = overrides.minPassRatio { settings.minPassRatio = value }
        if let value = overrides.minSoakSeconds { settings.minSoakSeconds = value }
        if let value = overrides.approvalsRequired { settings.approvalsRequired = value }
        return settings
    }
}

/// A fix's own criteria; nil fields keep the configured default.
public struct CriteriaOverrides: Sendable, Equatable {
    public var minTestersPassed: Int?
    public var requiredAssistiveTech: [CriteriaSettings.Requirement]?
    public var maxBlocking: Int?
    public var minPassRatio: Double?
    public var minSoakSeconds: Int?
    public var approvalsRequired: Int?

    public init(minTestersPassed: Int? = nil, requiredAssistiveTech: [CriteriaSettings.Requirement]? = nil, maxBlocking: Int? = nil,
                minPassRatio: Double? = nil, minSoakSeconds: Int? = nil, approvalsRequired: Int? = nil) {
        self.minTestersPassed = minTestersPassed
        self.requiredAssistiveTech = requiredAssistiveTech
        self.maxBlocking = maxBlocking
        self.minPassRatio = minPassRatio
        self.minSoakSeconds = minSoakSeconds
        self.approvalsRequired = approvalsRequired
    }

    public var isEmpty: Bool { self == CriteriaOverrides() }
}
