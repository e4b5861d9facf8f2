import VouchJSON

extension OutputFormatter {
    /// One sentence per audit event: when, who did what to which fix or record, and the state change or note it records,
    /// such as "…: admin enrolled testers in fix tv-channel-selector-labels: t_4w9tedpdf8fc."
    static func eventLine(_ event: JSONValue) -> String {
        let fix = event["fix"]?.stringValue.map { "fix " + $0 }
        let object = [event["subject"]?.stringValue, fix].compactMap { $0 }.joined(separator: " on ")
        var line = "\(time(event, "at")): \(text(event, "principal")) \(spoken(event, "action", .auditAction))" + (object.isEmpty ? "" : " " + object)
        let before = event["before"]?["state"]?.stringValue
        let after = event["after"]?["state"]?.stringValue
        if let before, let after, before != after {
            line += ", state \(SpokenWords.say(before, .fixState)) to \(SpokenWords.say(after, .fixState))"
        } else if before == nil, let after {
            line += ", state \(SpokenWords.say(after, .fixState))"
        }
        // The enrollment actions already say "enrolled testers in" and "removed testers from": the ids follow.
        for (member, lead) in [("added", ", added "), ("removed", ", removed "), ("enrolled", ": "), ("unenrolled", ": ")] {
            if let ids = event["after"]?[member], !(ids.arrayValue ?? []).isEmpty { line += lead + list(ids) }
        }
        if let after = event["after"], after["verdict"] != nil {
            line += ", tester \(text(after, "tester")), verdict \(spoken(after, "verdict", .verdict))"
        }
        if let note = event["note"]?.stringValue { line += ", note: \(note)" }
        return line + "."
    }
}
