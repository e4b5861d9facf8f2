import Foundation
import VouchDomain

/// The console's words for stored values: what a person reads instead of `cant_tell` or `rolled_back`.
public enum Words {
    public static func state(_ state: FixState) -> String { Messages.english.state(state) }

    /// The state as a tag whose colour repeats what its word says.
    public static func stateTag(_ state: FixState, _ messages: Messages = .english) -> StatusTag {
        switch state {
        case .released: StatusTag(messages.state(state), tone: .good)
        case .promotionFailed, .paused, .rolledBack: StatusTag(messages.state(state), tone: .bad)
        case .testing, .promoting, .releasing: StatusTag(messages.state(state), tone: .waiting)
        case .draft, .abandoned: StatusTag(messages.state(state))
        }
    }

    /// "release manager" rather than `release_manager`: a role as a person says it, in the middle of a sentence.
    public static func role(_ role: Role) -> String { Messages.english.role(role) }

    /// "an administrator, a release manager or a maintainer": the roles that may do something, for a refusal.
    public static func roles(_ roles: [Role]) -> String {
        let named = roles.map { role in ("aeiou".contains(Words.role(role).prefix(1)) ? "an " : "a ") + Words.role(role) }
        guard let last = named.last else { return "nobody" }
        return named.count == 1 ? last : named.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The API's prose with the names it quotes said in words: "fix K is promotion_failed" reads "fix K is promotion
    /// failed", "the role release_manager" reads "the role release manager", `completed_with_workaround` reads "completed
    /// with a workaround". Only whole names with an underscore are replaced; single words already read as words.
    public static func prose(_ text: String) -> String {
        var result = text
        for (name, words) in proseNames { result = result.replacingWholeName(name, with: words) }
        return result
    }

    private static let proseNames: [(String, String)] = {
        var names: [(String, String)] = FixState.allCases.map { ($0.rawValue, state($0).lowercased()) }
        names += Role.allCases.map { ($0.rawValue, role($0)) }
        names += [(Verdict.cantTell.rawValue, "can't tell")]
        names += [("completed_independently", "completed independently"), ("completed_with_workaround", "completed with a workaround"),
                  ("completed_with_assistance", "completed with assistance"), ("not_completed", "not completed")]
        names += AssistiveTechnology.allCases.map { ($0.rawValue, $0.displayName) }
        return names.filter { $0.0.contains("_") }
    }()

    /// "reference ending 9todomw" rather than the whole `fb_d96c8cyh49todomw`, which a screen reader spells letter by letter:
    /// for a generated id a person only needs to recognise. Where an id must be typed, pages show it whole.
    public static func shortID(_ id: String) -> String { ShortID.say(id) }

    public static func platform(_ platform: Platform) -> String {
        switch platform {
        case .ios: "iOS"
        case .android: "Android"
        case .web: "Web"
        }
    }

    public static func verdict(_ verdict: Verdict) -> String { Messages.english.verdict(verdict) }

    public static func taskOutcome(_ outcome: TaskOutcome) -> String { Messages.english.taskOutcome(outcome) }

    public static func severity(_ severity: Severity) -> String { Messages.english.severity(severity) }

    public static func announcement(_ announcement: Announcement) -> String { Messages.english.announcement(announcement) }

    public static func browser(_ browser: Browser) -> String { Messages.english.browser(browser) }

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
