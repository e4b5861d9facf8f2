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
