import Foundation
import VouchJSON

extension OutputFormatter {
    /// An OFREP evaluation, each part labelled, the reason also said in words.
    static func evaluation(_ answer: JSONValue, targetingKey: String?) -> [String] {
        let value = answer["value"]?.boolValue.map { $0 ? "true" : "false" } ?? "unknown"
        let reason = answer["reason"]?.stringValue
        var lines = [
            "Flag: \(text(answer, "key"))",
            "Targeting key: \(targetingKey ?? "none")",
            "Value: \(value)",
            "Variant: \(text(answer, "variant"))",
            "Reason: \(SpokenWords.say(reason, .evaluationReason))" + (reason.flatMap { reasonMeaning[$0] }.map { " (\($0))" } ?? ""),
        ]
        if let metadata = answer["metadata"] {
            lines.append("Revision: \(number(metadata, "revision"))")
            lines.append("State: \(spoken(metadata, "state", .fixState))")
        }
        return lines
    }

    private static let reasonMeaning = [
        "DISABLED": "the fix is off for everyone in its state",
        "TARGETING_MATCH": "this key is targeted",
        "DEFAULT": "the fix is in testing and this key is not targeted",
        "SPLIT": "phased rollout: this key's bucket decides",
        "STATIC": "the fix is released to everyone",
    ]
}

extension OutputFormatter {
    /// One line for a watched flag whose answer changed, labelled and timed in local time:
    /// "At 14:03:07: on, reason targeting match, revision 2, state testing (was off, reason default)".
    static func evaluationChange(_ answer: JSONValue, was previous: JSONValue, at time: Date) -> String {
        let was = " (was \(evaluationSummary(previous)))"
        guard let metadata = answer["metadata"] else { return "At \(clockTime(time)): \(evaluationSummary(answer))" + was }
        return "At \(clockTime(time)): \(evaluationSummary(answer)), revision \(number(metadata, "revision")), "
            + "state \(spoken(metadata, "state", .fixState))" + was
    }

    /// "on, reason targeting match", or "error, flag not found" for an answer that is an OFREP error.
    static func evaluationSummary(_ answer: JSONValue) -> String {
        if let code = answer["errorCode"]?.stringValue { return "error, \(SpokenWords.say(code, .evaluationError))" }
        let value = answer["value"]?.boolValue.map { $0 ? "on" : "off" } ?? "unknown"
        return "\(value), reason \(spoken(answer, "reason", .evaluationReason))"
    }

    /// "14:03:07" in the machine's time zone.
    static func clockTime(_ time: Date) -> String {
        var seconds = time_t(time.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
