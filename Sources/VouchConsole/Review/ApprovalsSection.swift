import VouchConsoleKit
import VouchDomain

/// Every approval and rejection of the fix, on any revision, with whether it counts now.
struct ApprovalsSection {
    let report: CriteriaReport
    var messages: Messages = .english

    func render() -> HTML {
        let rows = report.approvals.reversed().map { entry -> [HTML] in
            let approval = entry.approval
            let comment: HTML = approval.comment.map { "<br>\(messages(.approvalsComment, ["comment": $0]))" } ?? .empty
            return ["\(ReviewWords.decision(approval.decision, messages))<br><span class=\"hint\">\(messages.staffTimeElement(approval.recordedAt))</span>\(comment)",
                    "\(approval.principal)", "\(messages.number(approval.revision))",
                    ReviewWords.standing(entry, currentRevision: report.revision, messages)]
        }
        return DataTable(caption: messages[.approvalsCaption],
                         columns: [messages[.approvalsDecision], messages[.approvalsBy], messages[.approvalsRevision], messages[.approvalsStanding]],
                         rows: rows, emptyText: messages[.approvalsEmpty]).render()
    }
}
