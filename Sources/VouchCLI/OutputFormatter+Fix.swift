import VouchDomain
import VouchJSON

extension OutputFormatter {
    /// The actions this version of `vouch` can perform, so "Next actions" never offers one it cannot.
    static let availableActions = ["start", "revise", "pause", "resume", "abandon", "rollback", "promote", "retry-promotion"]

    /// Every field of one fix, one labelled line each.
    static func fixDetails(_ fix: JSONValue) -> [String] {
        var lines = [
            "Key: \(text(fix, "key"))",
            "Title: \(text(fix, "title"))",
            "UI area: \(text(fix, "ui_area"))",
            "State: \(spoken(fix, "state", .fixState))",
        ]
        if let pausedFrom = fix["paused_from"]?.stringValue { lines.append("Paused from: \(SpokenWords.say(pausedFrom, .fixState))") }
        if let percentage = fix["rollout_percentage"]?.intValue { lines.append("Rollout: \(percentage) percent") }
        lines += [
            "Revision: \(number(fix, "revision"))",
            "Platforms: \(spokenList(fix["platforms"], .platform))",
            "WCAG: \(wcag(fix["wcag"]))",
            "Expected announcement: \(text(fix, "expected_announcement", "none"))",
            "Description: \(text(fix, "description", "none"))",
            "Written in: \(text(fix, "language", "not recorded"))",
            "Author: \(text(fix, "author"))",
            "Criteria overrides: \(criteriaOverrides(fix["criteria"]))",
            "Rollout plan: \(rolloutPlan(fix["rollout"]))",
        ]
        let actions = (fix["allowed_actions"]?.arrayValue ?? []).compactMap(\.stringValue).filter(availableActions.contains)
        lines.append("Next actions: \(actions.isEmpty ? "none" : actions.joined(separator: ", "))")
        lines.append("Created: \(time(fix, "created_at"))")
        lines.append("Updated: \(time(fix, "updated_at"))")
        return lines
    }

    /// One line per fix in a list.
    static func fixLine(_ fix: JSONValue) -> String {
        "\(text(fix, "key")): \(text(fix, "title")). State \(spoken(fix, "state", .fixState)), revision \(number(fix, "revision")), UI area \(text(fix, "ui_area"))."
    }

    /// After an action: "Fix tv-channel-selector-labels is now testing (revision 1)."
    static func fixState(_ fix: JSONValue) -> String {
        "Fix \(text(fix, "key")) is now \(spoken(fix, "state", .fixState)) (revision \(number(fix, "revision")))."
    }

    /// A fix's `rollout` member in words: "everyone at once", or "in phases of 10, 50 and 100 percent of users, one step every 24 hours"
    /// ("every hour" for one).
    static func rolloutPlan(_ rollout: JSONValue?) -> String {
        guard let rollout, rollout.objectValue != nil else { return "everyone at once" }
        let steps = (rollout["steps"]?.arrayValue ?? []).compactMap(\.intValue).map(String.init)
        let interval = durationWords(text(rollout, "interval"))
        var plan = "in phases of \(wordList(steps)) percent of users, one step every \(interval.hasPrefix("1 ") ? String(interval.dropFirst(2)) : interval)"
        if rollout["next_step_at"]?.stringValue != nil { plan += ", next step on \(time(rollout, "next_step_at"))" }
        return plan
    }

    /// "a", "a and b", "a, b and c".
    static func wordList(_ items: [String]) -> String {
        guard let last = items.last else { return "none" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// A duration as the API writes it (`24h`, `90s`, `7d`) in words: "24 hours", "90 seconds", "7 days".
    static func durationWords(_ duration: String) -> String {
        let units: [Character: String] = ["s": "second", "m": "minute", "h": "hour", "d": "day"]
        guard let unit = duration.last.flatMap({ units[$0] }), let count = Int(duration.dropLast()) else { return duration }
        return "\(count) \(unit)\(count == 1 ? "" : "s")"
    }

    /// Criteria numbers with their names, separated by semicolons because the names hold commas.
    static func wcag(_ value: JSONValue?) -> String {
        let numbers = (value?.arrayValue ?? []).compactMap(\.stringValue)
        guard !numbers.isEmpty else { return "none" }
        return numbers.map { number in WCAGCatalog.criterion(number).map { "\(number) \($0.name)" } ?? number }.joined(separator: "; ")
    }
}
