import VouchDomain
import VouchJSON

/// A Slack incoming-webhook message for an event: one sentence that says what happened, the evidence when the event
/// carries it, and a link to the fix's console page (docs/contracts.md, "Formats"). In English: a channel has no
/// language of its own in Vouch. Like every payload, it names no tester and no assistive-technology profile.
enum SlackMessage {
    static func text(for event: JSONValue, type: WebhookEventType, consoleURL: String) -> String {
        let data = event["data"] ?? .object([:])
        let key = data["fix"]?.stringValue ?? ""
        let fix = "fix " + escaped(key)
        let revision = data["revision"]?.intValue.map { " (revision \($0))" } ?? ""
        var lines: [String]
        switch type {
        case .fixCreated: lines = ["Vouch: \(fix) was created."]
        case .fixTestingStarted: lines = ["Vouch: testing started on \(fix)\(revision)."]
        case .fixRevised: lines = ["Vouch: \(fix) has a new revision to test\(revision)."]
        case .feedbackReceived:
            let verdict = data["verdict"]?.stringValue.map { ": \(words($0))" } ?? ""
            lines = ["Vouch: feedback was recorded on \(fix)\(revision)\(verdict)."]
        case .approvalRecorded:
            let decision = data["decision"]?.stringValue == "reject" ? "rejected" : "approved"
            let by = data["principal"]?.stringValue.map { " by " + escaped($0) } ?? ""
            lines = ["Vouch: \(fix)\(revision) was \(decision)\(by)."]
        case .fixPromoted: lines = ["Vouch: \(fix)\(revision) was promoted; it is released once its required webhooks accept."]
        case .fixReleased: lines = ["Vouch: \(fix)\(revision) is released to everyone."]
        case .fixPromotionFailed: lines = ["Vouch: the promotion of \(fix)\(revision) failed: a required webhook did not accept it."]
        case .fixPaused: lines = ["Vouch: \(fix) was paused; its flag is off except for testers."]
        case .fixResumed: lines = ["Vouch: \(fix) was resumed."]
        case .fixRolledBack: lines = ["Vouch: \(fix) was rolled back; its flag is off for everyone."]
        case .fixRolloutStep:
            let percentage = data["percentage"]?.intValue.map { " reached \($0) % of users" } ?? " moved to its next step"
            lines = ["Vouch: the rollout of \(fix)\(revision)\(percentage)."]
        case .webhookTest:
            let webhook = data["webhook"]?.stringValue.map { " for webhook " + escaped($0) } ?? ""
            return "Vouch: this is a test message\(webhook). It arrived, so the webhook works."
        }
        if let evidence = data["evidence"], let passed = evidence["testers_passed"]?.intValue {
            let covered = (evidence["technologies_covered"]?.arrayValue ?? []).compactMap(\.stringValue).map(technology)
            let blocking = evidence["blocking"]?.intValue ?? 0
            lines.append("Evidence: \(count(passed, "tester", "testers")) passed"
                + (covered.isEmpty ? "" : ", with " + covered.joined(separator: ", "))
                + "; \(count(blocking, "blocking report", "blocking reports")).")
        }
        if !consoleURL.isEmpty, !key.isEmpty {
            lines.append("<\(consoleURL)/console/fixes/\(key)|Open \(fix) in the Vouch console>")
        }
        return lines.joined(separator: "\n")
    }

    /// Slack's three control characters in message text, escaped as its formatting rules ask.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// `cant_tell` as "cant tell": the API's names read as words.
    private static func words(_ name: String) -> String { escaped(name.replacingOccurrences(of: "_", with: " ")) }

    /// `ios:voiceover` as "voiceover on ios".
    private static func technology(_ pair: String) -> String {
        let parts = pair.split(separator: ":", maxSplits: 1).map(String.init)
        return parts.count == 2 ? "\(words(parts[1])) on \(words(parts[0]))" : words(pair)
    }

    private static func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
}
