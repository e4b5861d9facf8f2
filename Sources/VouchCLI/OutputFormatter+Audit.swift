import VouchDomain
import VouchJSON

extension OutputFormatter {
    /// One sentence per audit event: when, who did what to which fix or record, and the state change or note it records,
    /// such as "…: admin enrolled testers in fix tv-channel-selector-labels: tester ending 9tedpdf." Ids are said short: an audit
    /// line is read to recognise who and what, and no command takes them from here.
    static func eventLine(_ event: JSONValue) -> String {
        let fix = event["fix"]?.stringValue.map { "fix " + $0 }
        let object = [event["subject"]?.stringValue.map(ShortID.say), fix].compactMap { $0 }.joined(separator: " on ")
        var line = "\(time(event, "at")): \(ShortID.principal(text(event, "principal"))) \(spoken(event, "action", .auditAction))" + (object.isEmpty ? "" : " " + object)
        let before = event["before"]?["state"]?.stringValue
        let after = event["after"]?["state"]?.stringValue
        if let before, let after, before != after {
            line += ", state \(SpokenWords.say(before, .fixState)) to \(SpokenWords.say(after, .fixState))"
        } else if before == nil, let after {
            line += ", state \(SpokenWords.say(after, .fixState))"
        }
        // The enrollment actions already say "enrolled testers in" and "removed testers from": the ids follow.
        // Direct targets are targeting keys, said whole; enrolled testers are pseudonyms, said short.
        for (member, lead) in [("added", ", added "), ("removed", ", removed ")] {
            if let keys = event["after"]?[member], !(keys.arrayValue ?? []).isEmpty { line += lead + list(keys) }
        }
        for member in ["enrolled", "unenrolled"] {
            let ids = (event["after"]?[member]?.arrayValue ?? []).compactMap(\.stringValue)
            if !ids.isEmpty { line += ": " + shortTesters(ids) }
        }
        if let after = event["after"], after["verdict"] != nil {
            line += ", tester \(short(after, "tester")), verdict \(spoken(after, "verdict", .verdict))"
        }
        if let note = event["note"]?.stringValue { line += ", note: \(note)" }
        // How the principal acted when not through a token, the usual way: a sign-in through the identity provider, or
        // a tester's personal link and who opened it.
        if let via = event["via"]?.stringValue, via != "token" { line += ", through \(via)" }
        return line + "."
    }
}
