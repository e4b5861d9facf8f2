import VouchDomain

/// The words a person hears for the API's names: "can't tell" for `cant_tell`, "minimum passing testers" for
/// `min_testers_passed`. Plain output and the interview's choices use them; the API's names stay only where they are typed:
/// option names and `--help` synopses (docs/contracts.md, "CLI").
enum SpokenWords {
    /// A set of names with their words; the same name may say different things in two of them (`web` the platform, `web` the channel).
    enum Vocabulary: CaseIterable {
        /// Request and record field names, criteria names among them, as validation errors and criteria overrides name them.
        case field
        case verdict
        case taskOutcome
        case severity
        case platform
        case assistiveTech
        case browser
        case announcement
        case channel
        case role
        case fixState
        case deliveryStatus
        case eventType
        /// Audit actions as a verb phrase that the event's object follows: "enrolled testers in" fix K.
        case auditAction
        case evaluationReason
        case evaluationError
    }

    /// The words for `name`; a name the table does not hold (from a newer server) is said with spaces for `_`, `.` and `-`.
    static func say(_ name: String?, _ vocabulary: Vocabulary) -> String {
        guard let name else { return "unknown" }
        return table[vocabulary]?[name] ?? fallback(name)
    }

    /// A server's prose with the fix states and roles it names said as words: "fix K is promotion_failed" becomes
    /// "fix K is promotion failed", "the role release_manager" becomes "the role release manager". Only whole names
    /// with an underscore are replaced (single words already read well), and only in prose about states and roles:
    /// a validation message's list of allowed values stays as typed.
    static func prose(_ text: String) -> String {
        var result = text
        for vocabulary in [Vocabulary.fixState, .role] {
            for (name, words) in table[vocabulary] ?? [:] where name.contains("_") {
                result = result.replacingWholeName(name, with: words)
            }
        }
        return result
    }

    /// The words for a value of a record field, by the field's API name: `verdict` `cant_tell` is "can't tell".
    static func say(_ value: String?, ofField field: String) -> String {
        guard let vocabulary = fieldVocabularies[field] else { return value ?? "unknown" }
        return say(value, vocabulary)
    }

    /// A field path from a validation error: `wcag[0]` is "WCAG, item 1", `[1].verdict` (a file's second record) is
    /// "record 2, verdict", `assistive_tech[0].platform` is "assistive technology, item 1, platform".
    static func fieldPath(_ path: String) -> String {
        var parts: [String] = []
        var name = ""
        var index = ""
        var inIndex = false
        func endName() {
            if !name.isEmpty { parts.append(say(name, .field)) }
            name = ""
        }
        for character in path {
            switch character {
            case "[" where !inIndex:
                endName()
                inIndex = true
            case "]" where inIndex:
                // The place a person counts from 1; a batch's records stand first, before any field.
                let place = Int(index).map { String($0 + 1) } ?? index
                parts.append(parts.isEmpty ? "record \(place)" : "item \(place)")
                index = ""
                inIndex = false
            case "." where !inIndex:
                endName()
            default:
                if inIndex { index.append(character) } else { name.append(character) }
            }
        }
        endName()
        return parts.isEmpty ? path : parts.joined(separator: ", ")
    }

    private static func fallback(_ name: String) -> String {
        let words = String(name.map { "_.-".contains($0) ? " " : $0 })
        // OFREP's codes are in capitals (`TARGETING_KEY_MISSING`), which a screen reader may spell letter by letter.
        return words.contains(where: \.isLowercase) ? words : words.lowercased()
    }

    /// Record fields whose values are names from a vocabulary.
    private static let fieldVocabularies: [String: Vocabulary] = [
        "verdict": .verdict, "task_outcome": .taskOutcome, "severity": .severity, "platform": .platform, "assistive_tech": .assistiveTech,
        "browser": .browser, "name_announced": .announcement, "role_announced": .announcement, "state_announced": .announcement,
        "focus_order": .announcement, "channel": .channel, "role": .role, "state": .fixState, "paused_from": .fixState,
    ]

    /// Every vocabulary's words, in one place so that the same name always sounds the same.
    static let table: [Vocabulary: [String: String]] = [
        .field: [
            "key": "key", "title": "title", "ui_area": "UI area", "platforms": "platforms", "wcag": "WCAG",
            "expected_announcement": "expected announcement", "description": "description", "language": "language", "revision": "revision", "state": "state",
            "tester": "tester", "testers": "testers", "verdict": "verdict", "task_outcome": "task outcome", "severity": "severity",
            "platform": "platform", "os_version": "OS version", "device": "device", "app_build": "app build", "assistive_tech": "assistive technology",
            "at_version": "assistive technology version", "browser": "browser", "browser_version": "browser version",
            "name_announced": "name announced", "role_announced": "role announced", "state_announced": "state announced",
            "focus_order": "focus order", "heard": "heard", "regression": "regression", "comment": "comment", "channel": "channel",
            "recorded_by": "recorded by", "name": "name", "contact": "contact", "targeting_keys": "targeting keys", "consent": "consent",
            "version": "version", "purge_feedback": "purge feedback", "url": "URL", "events": "events", "required": "required",
            "enabled": "enabled", "role": "role", "principal": "principal", "decision": "decision", "note": "note", "reason": "reason",
            "add": "keys to add", "remove": "keys to remove", "phased": "phased", "steps": "steps", "interval": "interval",
            "limit": "limit", "cursor": "cursor", "(body)": "the request body",
            "min_testers_passed": "minimum passing testers", "required_assistive_tech": "required assistive technologies",
            "max_blocking": "maximum blocking reports", "min_pass_ratio": "minimum pass ratio", "min_soak": "time in testing before promotion",
            "approvals_required": "required approvals",
        ],
        .verdict: ["passed": "passed", "failed": "failed", "cant_tell": "can't tell"],
        .taskOutcome: [
            "completed_independently": "completed independently", "completed_with_workaround": "completed with a workaround",
            "completed_with_assistance": "completed with assistance", "not_completed": "not completed",
        ],
        .severity: ["none": "none", "minor": "minor", "moderate": "moderate", "serious": "serious", "critical": "critical"],
        .platform: ["ios": "iOS", "android": "Android", "web": "web"],
        .assistiveTech: Dictionary(uniqueKeysWithValues: AssistiveTechnology.allCases.map { ($0.rawValue, $0.displayName) }),
        .browser: ["chrome": "Chrome", "edge": "Edge", "firefox": "Firefox", "safari": "Safari", "samsung_internet": "Samsung Internet", "other": "other browser"],
        .announcement: ["yes": "yes", "no": "no", "n/a": "not applicable"],
        .channel: ["cli": "the command line", "http": "the API", "web": "the web console"],
        .role: ["admin": "admin", "release_manager": "release manager", "maintainer": "maintainer", "tester": "tester", "sdk": "SDK"],
        .fixState: [
            "draft": "draft", "testing": "testing", "promoting": "promoting", "promotion_failed": "promotion failed", "releasing": "releasing",
            "released": "released", "paused": "paused", "rolled_back": "rolled back", "abandoned": "abandoned",
        ],
        .deliveryStatus: ["pending": "pending", "succeeded": "succeeded", "dead": "dead", "cancelled": "cancelled"],
        .eventType: [
            "fix.created": "fix created", "fix.testing_started": "fix testing started", "fix.revised": "fix revised", "feedback.received": "feedback received",
            "approval.recorded": "approval recorded", "fix.promoted": "fix promoted", "fix.released": "fix released",
            "fix.promotion_failed": "fix promotion failed", "fix.paused": "fix paused", "fix.resumed": "fix resumed", "fix.rolled_back": "fix rolled back",
            "fix.rollout_step": "fix rollout step", "webhook.test": "webhook test",
        ],
        .auditAction: [
            "fix.create": "created", "fix.update": "changed", "fix.start": "started testing", "fix.revise": "revised", "fix.pause": "paused",
            "fix.resume": "resumed", "fix.abandon": "abandoned", "fix.rollback": "rolled back", "fix.promote": "promoted",
            "fix.retry-promotion": "retried the promotion of", "fix.promotion-succeeded": "released",
            "fix.promotion-succeeded-phased": "began the phased release of", "fix.promotion-failed": "recorded the failed promotion of",
            "fix.rollout-completed": "completed the phased release of", "fix.rollout_step": "took a rollout step of", "fix.rollout": "set the rollout plan of",
            "fix.criteria": "set the criteria of", "fix.targets": "changed the direct targets of", "fix.enroll": "enrolled testers in",
            "fix.unenroll": "removed testers from", "feedback.create": "recorded feedback", "approval.approve": "recorded the approval",
            "approval.reject": "recorded the rejection", "tester.create": "added tester", "tester.update": "changed tester",
            "tester.withdraw": "withdrew tester", "token.create": "created token", "token.revoke": "revoked token", "webhook.create": "added webhook",
            "webhook.update": "changed webhook", "webhook.delete": "deleted webhook", "webhook.disable": "disabled webhook",
            "webhook.redeliver": "requeued delivery", "panel.create": "created panel", "panel.delete": "deleted panel",
            "panel.member_add": "changed the testers of panel", "panel.member_remove": "changed the testers of panel",
        ],
        .evaluationReason: [
            "DISABLED": "disabled", "TARGETING_MATCH": "targeting match", "DEFAULT": "default", "SPLIT": "split", "STATIC": "static",
        ],
        .evaluationError: [
            "PARSE_ERROR": "parse error", "INVALID_CONTEXT": "invalid context", "TARGETING_KEY_MISSING": "targeting key missing",
            "FLAG_NOT_FOUND": "flag not found", "GENERAL": "general error",
        ],
    ]
}
