import VouchDomain
import VouchJSON

extension OutputFormatter {
    /// The actions this version of `vouch` can perform, so "Next actions" never offers one it cannot.
    static let availableActions = ["start", "revise", "pause", "resume", "abandon", "rollback"]

    /// Every field of one fix, one labelled line each.
    static func fixDetails(_ fix: JSONValue) -> [String] {
        var lines = [
            "Key: \(text(fix, "key"))",
            "Title: \(text(fix, "title"))",
            "UI area: \(text(fix, "ui_area"))",
            "State: \(text(fix, "state"))",
        ]
        if let pausedFrom = fix["paused_from"]?.stringValue { lines.append("Paused from: \(pausedFrom)") }
        if let percentage = fix["rollout_percentage"]?.intValue { lines.append("Rollout: \(percentage) percent") }
        lines += [
            "Revision: \(number(fix, "revision"))",
            "Platforms: \(list(fix["platforms"]))",
            "WCAG: \(wcag(fix["wcag"]))",
            "Expected announcement: \(text(fix, "expected_announcement", "none"))",
            "Description: \(text(fix, "description", "none"))",
            "Author: \(text(fix, "author"))",
        ]
        let actions = (fix["allowed_actions"]?.arrayValue ?? []).compactMap(\.stringValue).filter(availableActions.contains)
        lines.append("Next actions: \(actions.isEmpty ? "none" : actions.joined(separator: ", "))")
        lines.append("Created: \(text(fix, "created_at"))")
        lines.append("Updated: \(text(fix, "updated_at"))")
        return lines
    }

    /// One line per fix in a list.
    static func fixLine(_ fix: JSONValue) -> String {
        "\(text(fix, "key")): \(text(fix, "title")). State \(text(fix, "state")), revision \(number(fix, "revision")), UI area \(text(fix, "ui_area"))."
    }

    /// After an action: "Fix tv-channel-selector-labels is now testing (revision 1)."
    static func fixState(_ fix: JSONValue) -> String {
        "Fix \(text(fix, "key")) is now \(text(fix, "state")) (revision \(number(fix, "revision")))."
    }

    /// Criteria numbers with their names, separated by semicolons because the names hold commas.
    static func wcag(_ value: JSONValue?) -> String {
        let numbers = (value?.arrayValue ?? []).compactMap(\.stringValue)
        guard !numbers.isEmpty else { return "none" }
        return numbers.map { number in WCAGCatalog.criterion(number).map { "\(number) \($0.name)" } ?? number }.joined(separator: "; ")
    }
}
