import VouchConsoleKit
import VouchDomain

/// Words for what release managers read: criteria, verdicts and severities as staff say them (the tester's own
/// question pages ask in the first person, "Yes, it works"), and approvals with their standing. The criteria's
/// names are the ones `vouch status` says.
enum ReviewWords {
    static func criterion(_ name: String, _ messages: Messages = .english) -> String {
        switch name {
        case "min_testers_passed": messages[.criteriaMinTestersPassed]
        case "required_assistive_tech": messages[.criteriaRequiredAssistiveTech]
        case "max_blocking": messages[.criteriaMaxBlocking]
        case "min_pass_ratio": messages[.criteriaMinPassRatio]
        case "min_soak": messages[.criteriaMinSoak]
        case "approvals_required": messages[.criteriaApprovalsRequired]
        default: sentence(name.replacingOccurrences(of: "_", with: " "), period: false)
        }
    }

    static func verdict(_ verdict: Verdict, _ messages: Messages = .english) -> String {
        switch verdict {
        case .passed: messages[.reviewPassed]
        case .failed: messages[.reviewFailed]
        case .cantTell: messages[.reviewCantTell]
        }
    }

    static func severity(_ severity: Severity, _ messages: Messages = .english) -> String {
        switch severity {
        case .none: messages[.reviewSeverityNone]
        case .minor: messages[.reviewSeverityMinor]
        case .moderate: messages[.reviewSeverityModerate]
        case .serious: messages[.reviewSeveritySerious]
        case .critical: messages[.reviewSeverityCritical]
        }
    }

    static func decision(_ decision: Approval.Decision, _ messages: Messages = .english) -> String {
        messages[decision == .approve ? .approvalsApproved : .approvalsRejected]
    }

    /// Whether a decision weighs on promotion now, and why not when it does not, as `vouch status` says it: a
    /// rejection blocks its revision for good; an approval counts while it is valid. The service's explanations are
    /// English prose, marked as such on a page in another language.
    static func standing(_ entry: CriteriaReport.ApprovalEntry, currentRevision: Int, _ messages: Messages = .english) -> HTML {
        let prose = { (text: String) -> HTML in messages.authored(sentence(text), language: Language.en.rawValue) }
        let (tag, words): (StatusTag, HTML) = switch (entry.approval.decision, entry.standing) {
        case (.reject, _) where entry.approval.revision == currentRevision:
            (StatusTag(messages[.standingBlocking], tone: .bad), "\(messages[.standingBlockingText])")
        case (.reject, _): (StatusTag(messages[.standingNotBlocking]), prose(entry.standing.explanation))
        case (.approve, .valid): (StatusTag(messages[.standingValid], tone: .good), "\(messages[.standingValidText])")
        case (.approve, .expired(let time)): (StatusTag(messages[.standingExpired]), "\(messages(.standingExpiredText, ["date": messages.staffTime(time)]))")
        case (.approve, .voidedByFailingFeedback): (StatusTag(messages[.standingVoided], tone: .bad), prose(entry.standing.explanation + "; it no longer counts"))
        case (.approve, .otherRevision): (StatusTag(messages[.standingOldRevision]), prose(entry.standing.explanation + "; it does not count"))
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
