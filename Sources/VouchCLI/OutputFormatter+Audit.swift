import VouchJSON

extension OutputFormatter {
    /// One line per audit event: when, who, what, on which fix, and the state change or note it records.
    static func eventLine(_ event: JSONValue) -> String {
        var line = "\(text(event, "at")): \(text(event, "principal")) \(text(event, "action"))"
        if let fix = event["fix"]?.stringValue { line += " on fix \(fix)" }
        if let subject = event["subject"]?.stringValue { line += " on \(subject)" }
        let before = event["before"]?["state"]?.stringValue
        let after = event["after"]?["state"]?.stringValue
        if let before, let after, before != after {
            line += ", state \(before) to \(after)"
        } else if before == nil, let after {
            line += ", state \(after)"
        }
        for (member, words) in [("added", "added"), ("removed", "removed"), ("enrolled", "enrolled"), ("unenrolled", "removed")] {
            if let ids = event["after"]?[member], !(ids.arrayValue ?? []).isEmpty { line += ", \(words) \(list(ids))" }
        }
        if let after = event["after"], let verdict = after["verdict"]?.stringValue {
            line += ", tester \(text(after, "tester")), verdict \(verdict)"
        }
        if let note = event["note"]?.stringValue { line += ", note: \(note)" }
        return line + "."
    }
}
