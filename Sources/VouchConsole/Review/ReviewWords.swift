import VouchConsoleKit
import VouchDomain

/// Words for what release managers read: criteria, verdicts and severities as staff say them (the tester's own
/// question pages ask in the first person, "Yes, it works"), and approvals with their standing. The criteria's
/// names are the ones `vouch status` says.
enum ReviewWords {
    static func criterion(_ name: String) -> String {
        switch name {
        case "min_testers_passed": "Minimum passing testers"
        case "required_assistive_tech": "Required assistive technologies"
        case "max_blocking": "Maximum blocking reports"
        case "min_pass_ratio": "Minimum pass ratio"
        case "min_soak": "Time in testing before promotion"
        case "approvals_required": "Required approvals"
        default: sentence(name.replacingOccurrences(of: "_", with: " "), period: false)
        }
    }

    static func verdict(_ verdict: Verdict) -> String {
        switch verdict {
        case .passed: "Passed"
        case .failed: "Failed"
        case .cantTell: "Can't tell"
        }
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .none: "None"
        case .minor: "Minor"
        case .moderate: "Moderate"
        case .serious: "Serious"
        case .critical: "Critical"
        }
    }

    static func decision(_ decision: Approval.Decision) -> String {
        decision == .approve ? "Approved" : "Rejected"
    }

    /// Whether a decision weighs on promotion now, and why not when it does not, as `vouch status` says it: a
    /// rejection blocks its revision for good; an approval counts while it is valid.
    static func standing(_ entry: CriteriaReport.ApprovalEntry, currentRevision: Int) -> HTML {
        let (tag, words): (StatusTag, String) = switch (entry.approval.decision, entry.standing) {
        case (.reject, _) where entry.approval.revision == currentRevision:
            (StatusTag("Blocking", tone: .bad), "It blocks promotion until a new revision.")
        case (.reject, _): (StatusTag("Not blocking"), sentence(entry.standing.explanation))
        case (.approve, .valid): (StatusTag("Valid", tone: .good), "It counts toward promotion.")
        case (.approve, .expired(let time)): (StatusTag("Expired"), "It expired on \(Words.time(time)) and no longer counts.")
        case (.approve, .voidedByFailingFeedback): (StatusTag("Voided", tone: .bad), sentence(entry.standing.explanation + "; it no longer counts"))
        case (.approve, .otherRevision): (StatusTag("Old revision"), sentence(entry.standing.explanation + "; it does not count"))
        }
        return "\(tag.render()) \(words)"
    }

    /// A phrase as a sentence: a capital first letter and, unless `period` is false, a full stop.
    static func sentence(_ phrase: String, period: Bool = true) -> String {
        guard let first = phrase.first else { return phrase }
        let capitalised = first.uppercased() + phrase.dropFirst()
        return period && !phrase.hasSuffix(".") ? capitalised + "." : capitalised
    }
}
