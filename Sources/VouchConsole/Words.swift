import Foundation
import VouchDomain

/// The console's words for stored values: what a person reads instead of `cant_tell` or `rolled_back`.
public enum Words {
    public static func state(_ state: FixState) -> String {
        switch state {
        case .draft: "Draft"
        case .testing: "In testing"
        case .promoting: "Being promoted"
        case .promotionFailed: "Promotion failed"
        case .releasing: "Releasing in steps"
        case .released: "Released"
        case .paused: "Paused"
        case .rolledBack: "Rolled back"
        case .abandoned: "Abandoned"
        }
    }

    /// The state as a tag whose colour repeats what its word says.
    public static func stateTag(_ state: FixState) -> StatusTag {
        switch state {
        case .released: StatusTag(Words.state(state), tone: .good)
        case .promotionFailed, .paused, .rolledBack: StatusTag(Words.state(state), tone: .bad)
        case .testing, .promoting, .releasing: StatusTag(Words.state(state), tone: .waiting)
        case .draft, .abandoned: StatusTag(Words.state(state))
        }
    }

    public static func platform(_ platform: Platform) -> String {
        switch platform {
        case .ios: "iOS"
        case .android: "Android"
        case .web: "Web"
        }
    }

    public static func verdict(_ verdict: Verdict) -> String {
        switch verdict {
        case .passed: "Yes, it works"
        case .failed: "No, it does not work"
        case .cantTell: "I can't tell"
        }
    }

    public static func taskOutcome(_ outcome: TaskOutcome) -> String {
        switch outcome {
        case .completedIndependently: "Yes, on my own"
        case .completedWithWorkaround: "Yes, with a workaround"
        case .completedWithAssistance: "Yes, with help from someone"
        case .notCompleted: "No, I could not finish it"
        }
    }

    public static func severity(_ severity: Severity) -> String {
        switch severity {
        case .none: "No problem left"
        case .minor: "Minor: an annoyance"
        case .moderate: "Moderate: it slows me down"
        case .serious: "Serious: I need a workaround or help"
        case .critical: "Critical: it stops me"
        }
    }

    public static func announcement(_ announcement: Announcement) -> String {
        switch announcement {
        case .yes: "Yes"
        case .no: "No"
        case .notApplicable: "Does not apply"
        }
    }

    public static func browser(_ browser: Browser) -> String {
        switch browser {
        case .chrome: "Chrome"
        case .edge: "Edge"
        case .firefox: "Firefox"
        case .safari: "Safari"
        case .samsungInternet: "Samsung Internet"
        case .other: "Another browser"
        }
    }

    /// "4.1.2 Name, Role, Value", or the number alone when the catalogue does not know it.
    public static func wcag(_ number: String) -> String {
        WCAGCatalog.criteria.first { $0.number == number }.map { "\($0.number) \($0.name)" } ?? number
    }

    /// "2 December 2026 at 14:03 UTC": unambiguous in every locale, and read well by screen readers.
    public static func time(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .long, time: .shortened, locale: Locale(identifier: "en_GB"), timeZone: .gmt)) + " UTC"
    }

    /// The `<time>` element for a date, with the machine-readable value.
    public static func timeElement(_ date: Date) -> HTML {
        "<time datetime=\"\(date.formatted(.iso8601))\">\(time(date))</time>"
    }
}
