import Foundation

/// Checks a feedback submission field by field and reports every problem at once.
public enum FeedbackValidator {
    public static let maxShortText = 64
    public static let maxHeard = 1_000
    public static let maxComment = 4_000

    /// Validates the record's own fields; the caller checks the fix's state, the tester's enrollment and the token's scope.
    /// - Parameter fieldPrefix: prefixes field names, such as `[2].` for the third record of a file.
    public static func makeFeedback(from draft: FeedbackDraft, id: String, fix: Fix, channel: FeedbackChannel, recordedBy: String, at time: Date,
                                    fieldPrefix: String = "", priorErrors: [FieldError] = []) throws(ValidationFailure) -> Feedback {
        var errors = priorErrors
        func field(_ name: String) -> String { fieldPrefix + name }
        func required<T>(_ value: String?, _ name: String, _ parse: (String) -> T?, allowed: String) -> T? {
            guard let value else {
                errors.append(FieldError(field: field(name), message: "is required; allowed: \(allowed)"))
                return nil
            }
            guard let parsed = parse(value) else {
                errors.append(FieldError(field: field(name), message: "'\(value)' is not allowed; allowed: \(allowed)"))
                return nil
            }
            return parsed
        }
        func optionalEnum<T>(_ value: String?, _ name: String, _ parse: (String) -> T?, allowed: String) -> T? {
            guard let value else { return nil }
            guard let parsed = parse(value) else {
                errors.append(FieldError(field: field(name), message: "'\(value)' is not allowed; allowed: \(allowed)"))
                return nil
            }
            return parsed
        }
        func text(_ value: String?, _ name: String, limit: Int, required: Bool) -> String? {
            guard let value else {
                if required { errors.append(FieldError(field: field(name), message: "is required: free text of at most \(limit) characters")) }
                return nil
            }
            // Checked as sent, stored trimmed. Free text may span lines; nothing else invisible is kept.
            if let problem = SchemaText.problem(value, limit: limit, required: required, lineBreaks: name == "heard" || name == "comment") {
                errors.append(FieldError(field: field(name), message: problem))
            }
            let trimmed = trimmedAtEnds(value)
            return trimmed.isEmpty ? nil : trimmed
        }

        let tester = text(draft.tester, "tester", limit: 64, required: true)
        let platform = required(draft.platform, "platform", Platform.init(rawValue:), allowed: Platform.allowedList)
        let osVersion = text(draft.osVersion, "os_version", limit: maxShortText, required: true)
        let device = text(draft.device, "device", limit: maxShortText, required: false)
        let appBuild = text(draft.appBuild, "app_build", limit: maxShortText, required: true)
        let technology = required(draft.assistiveTech, "assistive_tech", AssistiveTechnology.init(rawValue:), allowed: AssistiveTechnology.allowedList)
        let atVersion = text(draft.atVersion, "at_version", limit: maxShortText, required: false)
        let browser = optionalEnum(draft.browser, "browser", Browser.init(rawValue:), allowed: Browser.allowedList)
        let browserVersion = text(draft.browserVersion, "browser_version", limit: maxShortText, required: false)
        if platform == .web, draft.browser == nil {
            errors.append(FieldError(field: field("browser"), message: "is required for the web, where a screen reader is tested with a browser; allowed: \(Browser.allowedList)"))
        } else if let platform, platform != .web, draft.browser != nil || draft.browserVersion != nil {
            errors.append(FieldError(field: field(draft.browser != nil ? "browser" : "browser_version"),
                                     message: "is only for the web; leave it out for \(platform.rawValue)"))
        }
        let verdict = required(draft.verdict, "verdict", Verdict.init(rawValue:), allowed: Verdict.allowedList)
        let outcome = required(draft.taskOutcome, "task_outcome", TaskOutcome.init(rawValue:), allowed: TaskOutcome.allowedList)
        let severity = required(draft.severity, "severity", Severity.init(rawValue:), allowed: Severity.allowedList)
        let name = optionalEnum(draft.nameAnnounced, "name_announced", Announcement.init(rawValue:), allowed: Announcement.allowedList)
        let role = optionalEnum(draft.roleAnnounced, "role_announced", Announcement.init(rawValue:), allowed: Announcement.allowedList)
        let state = optionalEnum(draft.stateAnnounced, "state_announced", Announcement.init(rawValue:), allowed: Announcement.allowedList)
        let focus = optionalEnum(draft.focusOrder, "focus_order", Announcement.init(rawValue:), allowed: Announcement.allowedList)
        let givenChannel = optionalEnum(draft.channel, "channel", FeedbackChannel.init(rawValue:), allowed: FeedbackChannel.allowedList)
        let heard = text(draft.heard, "heard", limit: maxHeard, required: false)
        let comment = text(draft.comment, "comment", limit: maxComment, required: false)
        if let wcag = draft.wcag { errors += WCAGCatalog.validate(wcag, field: field("wcag")) }
        if verdict == .failed, let severity, severity < .moderate {
            errors.append(FieldError(field: field("severity"), message: "a failed verdict needs severity moderate, serious or critical, got \(severity.rawValue)"))
        }
        guard errors.isEmpty, let tester, let platform, let osVersion, let appBuild, let technology, let verdict, let outcome, let severity else {
            throw ValidationFailure(errors)
        }
        return Feedback(id: id, fixKey: fix.key.rawValue, revision: fix.revision, testerID: tester, platform: platform,
                        osVersion: osVersionNumber(osVersion, platform: platform),
                        device: device, appBuild: appBuild, assistiveTech: technology, atVersion: atVersion, browser: browser,
                        browserVersion: browserVersion, verdict: verdict, taskOutcome: outcome,
                        severity: severity, nameAnnounced: name, roleAnnounced: role, stateAnnounced: state, focusOrder: focus, heard: heard,
                        regression: draft.regression ?? false, wcag: WCAGCatalog.normalized(draft.wcag ?? []), comment: comment,
                        channel: givenChannel ?? channel, recordedBy: recordedBy, recordedAt: time)
    }

    /// The text without whitespace or line breaks at either end. Most values start and end with a visible ASCII
    /// character and are returned as they are: Foundation's trimming was a tenth of a submission's validation.
    static func trimmedAtEnds(_ value: String) -> String {
        if let first = value.utf8.first, let last = value.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return value
        }
        return value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The version number alone where the platform already names the system: "iOS 18.2" is stored as "18.2" and
    /// "Android version 15" as "15", since the record's platform says iOS or Android and every list would otherwise say
    /// it twice ("iOS, iOS 18.2"). On the web the system is the computer's ("Windows 11"), so it is kept as typed, and so
    /// is anything that would leave nothing (or no digit) behind.
    public static func osVersionNumber(_ text: String, platform: Platform) -> String {
        let names: [String] = switch platform {
        case .ios: ["iPadOS", "iOS"]
        case .android: ["Android"]
        case .web: []
        }
        for name in names {
            guard text.count > name.count, text.lowercased().hasPrefix(name.lowercased()) else { continue }
            var rest = text.dropFirst(name.count)
            // "iOS18" is a name and a number; "iOSX" is something else.
            guard rest.first.map({ $0 == " " || $0 == "-" || $0.isNumber }) == true else { continue }
            rest = rest.drop { $0 == " " || $0 == "-" }
            if rest.lowercased().hasPrefix("version ") { rest = rest.dropFirst("version ".count).drop { $0 == " " } }
            if rest.first?.isNumber == true { return String(rest) }
        }
        return text
    }
}
