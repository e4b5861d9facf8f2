import VouchDomain
import VouchJSON

extension OutputFormatter {
    /// A fix's criteria report (`GET /v1/fixes/{key}/status`): every criterion, met or not, in words and numbers; then, while the
    /// fix is in testing, what is still missing, the approvals with their standing and whether it is ready to promote; in any
    /// other state, the approvals and what became of the promotion instead, since the criteria no longer decide it.
    static func status(_ report: JSONValue) -> [String] {
        let criteria = report["criteria"]?.arrayValue ?? []
        let metCount = criteria.filter { $0["met"]?.boolValue == true }.count
        var lines = ["Fix: \(text(report, "fix"))", "State: \(SpokenWords.say(report["state"]?.stringValue, .fixState))"]
        if let percentage = report["rollout_percentage"]?.intValue { lines.append("Rollout: \(percentage) percent") }
        lines += ["Revision: \(number(report, "revision"))", "Criteria met: \(metCount) of \(criteria.count)"]
        for criterion in criteria {
            let met = criterion["met"]?.boolValue == true ? "met" : "not met"
            lines.append("Criterion \(SpokenWords.say(criterion["name"]?.stringValue, .field)): \(met). \(sentence(text(criterion, "summary")))")
            // The approvals criterion's details are the approvals themselves, told once below with their standing.
            guard text(criterion, "name") != "approvals_required" else { continue }
            lines += (criterion["details"]?.arrayValue ?? []).compactMap(\.stringValue).map { "  " + $0 }
        }
        let promotion = report["promotion"]?.stringValue
        if promotion == nil {
            let missing = (report["missing"]?.arrayValue ?? []).compactMap(\.stringValue)
            lines += missing.isEmpty ? ["Missing: nothing"] : ["Missing:"] + missing.map { "  " + $0 }
        }
        let approvals = report["approvals"]?.arrayValue ?? []
        let revision = report["revision"]?.intValue
        lines += approvals.isEmpty ? ["Approvals: none"] : ["Approvals:"] + approvals.map { "  " + approvalLine($0, currentRevision: revision) }
        if let promotion {
            lines.append("Promotion: \(promotion)" + (nextStep(state: text(report, "state"), fix: text(report, "fix")).map { "; " + $0 } ?? ""))
        } else {
            lines.append("Ready to promote: \(report["ready_to_promote"]?.boolValue == true ? "yes" : "no")")
        }
        return lines
    }

    /// The command that moves a fix on from where its promotion stands, when a person can do something.
    static func nextStep(state: String, fix: String) -> String? {
        switch state {
        case "draft": "start testing with 'vouch fix start \(fix)'"
        case "promoting": "follow the deliveries with 'vouch webhook deliveries'"
        case "promotion_failed": "retry with 'vouch fix retry-promotion \(fix)'"
        case "paused": "resume with 'vouch fix resume \(fix)'"
        case "rolled_back": "start again with 'vouch fix start \(fix)'"
        default: nil
        }
    }

    /// "Approved by rita, reference ending 4w9tedp, on revision 1, recorded on 30 November 2026 at 10:00 UTC. Standing: valid; it counts toward promotion. Comment: …"
    static func approvalLine(_ approval: JSONValue, currentRevision: Int?) -> String {
        let decision = decisionWord(approval)
        var line = "\(decision.prefix(1).uppercased() + decision.dropFirst()) by \(ShortID.principal(text(approval, "principal"))), reference \(short(approval, "id")), on revision \(number(approval, "revision")), "
            + "recorded on \(time(approval, "recorded_at")). Standing: \(approvalStanding(approval, currentRevision: currentRevision))."
        if let comment = approval["comment"]?.stringValue { line += " Comment: \(comment)" + (comment.hasSuffix(".") ? "" : ".") }
        return line
    }

    /// "approved" or "rejected".
    static func decisionWord(_ approval: JSONValue) -> String {
        switch text(approval, "decision") {
        case "approve": "approved"
        case "reject": "rejected"
        case let other: other
        }
    }

    /// Whether the decision weighs on promotion now, and why not when it does not. A rejection blocks its revision for good;
    /// an approval counts while it is valid (same revision, no failing feedback since, not expired).
    static func approvalStanding(_ approval: JSONValue, currentRevision: Int?) -> String {
        let standing = text(approval, "standing")
        if text(approval, "decision") == "reject" {
            return approval["revision"]?.intValue == currentRevision ? "it blocks promotion until a new revision" : "\(standing); it no longer blocks promotion"
        }
        return approval["valid"]?.boolValue == true ? "valid; it counts toward promotion" : "\(standing); it does not count"
    }

    /// The server's phrase as a sentence: first letter capitalized, closed by a full stop.
    static func sentence(_ phrase: String) -> String {
        guard let first = phrase.first else { return phrase }
        return first.uppercased() + phrase.dropFirst() + (phrase.hasSuffix(".") ? "" : ".")
    }

    /// A fix's criteria overrides (`{"min_testers_passed": 3, "min_soak": "2h"}`) in words: "minimum passing testers 3; time in testing
    /// before promotion 2 hours", separated by semicolons because the technologies hold commas.
    static func criteriaOverrides(_ value: JSONValue?) -> String {
        let members = value?.objectValue?.members ?? []
        guard !members.isEmpty else { return "none; every criterion follows the server's defaults" }
        return members.map { member in
            let shown: String
            switch (member.key, member.value) {
            case ("required_assistive_tech", .array(let items)):
                shown = wordList(items.compactMap(\.stringValue).map(requirementWords))
            // No time asked for reads "none", as the criterion's own line says it, rather than "0 seconds".
            case ("min_soak", .string(let duration)): shown = Int(duration.dropLast()) == 0 ? "none" : durationWords(duration)
            case (_, .array(let items)): shown = items.isEmpty ? "none" : items.compactMap(\.stringValue).joined(separator: ", ")
            case (_, .number(let number)): shown = member.value.intValue.map(String.init) ?? String(number)
            case (_, .string(let string)): shown = string
            default: shown = JSONWriter.string(member.value)
            }
            return "\(SpokenWords.say(member.key, .field)) \(shown)"
        }.joined(separator: "; ")
    }

    /// `ios:switch_control` as "Switch Control on iOS".
    static func requirementWords(_ requirement: String) -> String {
        let parts = requirement.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return requirement }
        return "\(SpokenWords.say(parts[1], .assistiveTech)) on \(SpokenWords.say(parts[0], .platform))"
    }
}
