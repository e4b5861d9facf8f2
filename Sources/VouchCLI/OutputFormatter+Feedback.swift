import VouchDomain
import VouchJSON

extension OutputFormatter {
    /// After a submission: "Feedback is recorded for fix K, revision 1, reference ending 9todomw: tester ending hc30sjq, verdict passed,
    /// severity minor." Nothing takes a feedback id and the tester was just typed: both are said short.
    static func recordedFeedback(_ record: JSONValue) -> [String] {
        var lines = ["Feedback is recorded for fix \(text(record, "fix")), revision \(number(record, "revision")), reference \(short(record, "id")): "
            + "tester \(short(record, "tester")), verdict \(spoken(record, "verdict", .verdict)), severity \(spoken(record, "severity", .severity))."]
        if record["blocking"]?.boolValue == true {
            lines.append("It blocks promotion: it reports a serious or critical problem, or a regression.")
        }
        return lines
    }

    /// One line per feedback record: who, on which revision, what they found, with what, and their words.
    static func feedbackLine(_ record: JSONValue) -> String {
        var technology = technologyName(record["assistive_tech"]?.stringValue)
        if let version = record["at_version"]?.stringValue { technology += " " + version }
        var line = "Feedback \(short(record, "id")): tester \(short(record, "tester")), revision \(number(record, "revision")), verdict \(spoken(record, "verdict", .verdict)), "
            + "task \(spoken(record, "task_outcome", .taskOutcome)), severity \(spoken(record, "severity", .severity)), "
            + "\(technology) on \(platformAndVersion(record)), app build \(text(record, "app_build")), "
            + "recorded on \(time(record, "recorded_at")) by \(ShortID.principal(text(record, "recorded_by"))) through \(spoken(record, "channel", .channel))."
        if let browser = record["browser"]?.stringValue {
            line += " Browser: \(SpokenWords.say(browser, .browser))" + (record["browser_version"]?.stringValue.map { " " + $0 } ?? "") + "."
        }
        if record["regression"]?.boolValue == true { line += " Regression." }
        if record["blocking"]?.boolValue == true { line += " Blocking." }
        // Entered on the tester's personal link in a browser where staff were signed in: not her own act.
        if let staff = record["link"]?["opened_by"]?.stringValue {
            line += " Entered by \(staff) on the tester's personal link, not by the tester."
        }
        if let heard = record["heard"]?.stringValue { line += " Heard: \(heard)." }
        if let comment = record["comment"]?.stringValue { line += " Comment: \(comment)" + (comment.hasSuffix(".") ? "" : ".") }
        return line
    }

    /// "iOS 18.2", also when the version was typed with the platform's name ("iOS 18.2", "ios18.2"): the name is said once;
    /// "the web, Windows 11" on the web.
    static func platformAndVersion(_ record: JSONValue) -> String {
        let platform = spoken(record, "platform", .platform)
        var version = Substring(text(record, "os_version"))
        if version.lowercased().hasPrefix(platform.lowercased()) {
            version = version.dropFirst(platform.count).drop { $0 == " " }
        }
        // On the web the version is the computer's system ("Windows 11"), not the web's.
        if text(record, "platform") == "web" { return version.isEmpty ? "the web" : "the web, \(version)" }
        return version.isEmpty ? platform : "\(platform) \(version)"
    }

    /// The evidence on the current revision, one labelled line each.
    static func feedbackSummary(_ summary: JSONValue) -> [String] {
        func counts(_ value: JSONValue?) -> String {
            let value = value ?? .null
            return "\(number(value, "passed")) passed, \(number(value, "failed")) failed, \(number(value, "cant_tell")) \(SpokenWords.say("cant_tell", .verdict))"
        }
        func grouped(_ label: String, _ value: JSONValue?, name: (String) -> String) -> String {
            let groups = (value?.objectValue?.members ?? []).map { "\(name($0.key)) \(counts($0.value))" }
            return "\(label): " + (groups.isEmpty ? "none" : groups.joined(separator: "; "))
        }
        func brief(_ record: JSONValue) -> String {
            var line = "tester \(short(record, "tester")): \(spoken(record, "verdict", .verdict)), severity \(spoken(record, "severity", .severity)), "
                + "\(technologyName(record["assistive_tech"]?.stringValue)) on \(spoken(record, "platform", .platform))"
            if record["regression"]?.boolValue == true { line += ", regression" }
            return line + ", feedback \(short(record, "feedback")), recorded on \(time(record, "recorded_at"))."
        }
        let latest = summary["latest"]?.arrayValue ?? []
        let blocking = summary["blocking"]?.arrayValue ?? []
        var lines = [
            "Fix: \(text(summary, "fix"))",
            "Revision: \(number(summary, "revision"))",
            "Records: \(number(summary, "records"))",
            "Testers: \(number(summary, "testers"))",
            "Verdicts: \(counts(summary["by_verdict"]))",
            grouped("By assistive technology", summary["by_assistive_tech"], name: { technologyName($0) }),
            grouped("By platform", summary["by_platform"], name: { SpokenWords.say($0, .platform) }),
        ]
        if summary["by_browser"]?.objectValue?.members.isEmpty == false {
            lines.append(grouped("By browser, on the web", summary["by_browser"], name: { SpokenWords.say($0, .browser) }))
        }
        lines += latest.isEmpty ? ["Latest verdicts: none"] : latest.map { "Latest verdict of \(brief($0))" }
        lines.append("Blocking reports: \(blocking.count)")
        lines += blocking.map { "Blocking report by \(brief($0))" }
        return lines
    }
}
