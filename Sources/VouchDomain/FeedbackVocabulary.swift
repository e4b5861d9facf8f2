/// EARL's outcomes, as a tester's verdict on a fix.
public enum Verdict: String, Sendable, CaseIterable {
    case passed
    case failed
    case cantTell = "cant_tell"
}

/// Whether the tester could do the task the fix is about, and how.
public enum TaskOutcome: String, Sendable, CaseIterable {
    case completedIndependently = "completed_independently"
    case completedWithWorkaround = "completed_with_workaround"
    case completedWithAssistance = "completed_with_assistance"
    case notCompleted = "not_completed"
}

/// The worst remaining problem, in axe-core's impact levels.
public enum Severity: String, Sendable, CaseIterable, Comparable {
    case none
    case minor
    case moderate
    case serious
    case critical

    /// Serious and critical problems block promotion.
    public var isBlocking: Bool { self >= .serious }

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Whether the screen reader announced a name, role or state, or kept the focus order (WCAG 4.1.2, 2.4.3).
public enum Announcement: String, Sendable, CaseIterable {
    case yes
    case no
    case notApplicable = "n/a"
}

/// The browser a web fix was tested in: on the web a screen reader and a browser are tested together (JAWS with
/// Chrome or Edge, NVDA with Firefox or Chrome, VoiceOver with Safari), so web feedback names it.
public enum Browser: String, Sendable, CaseIterable {
    case chrome
    case edge
    case firefox
    case safari
    case samsungInternet = "samsung_internet"
    case other

    public var displayName: String {
        switch self {
        case .chrome: "Chrome"
        case .edge: "Edge"
        case .firefox: "Firefox"
        case .safari: "Safari"
        case .samsungInternet: "Samsung Internet"
        case .other: "other browser"
        }
    }
}

/// How the feedback reached Vouch.
public enum FeedbackChannel: String, Sendable, CaseIterable {
    case cli
    case http
    case web
}

extension CaseIterable where Self: RawRepresentable, Self.RawValue == String {
    /// The allowed names, for error messages.
    public static var allowedList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
