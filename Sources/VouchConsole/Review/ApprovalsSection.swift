import VouchConsoleKit
import VouchDomain

/// Every approval and rejection of the fix, on any revision, with whether it counts now.
struct ApprovalsSection {
    let report: CriteriaReport

    func render() -> HTML {
        let rows = report.approvals.reversed().map { entry -> [HTML] in
            let approval = entry.approval
            let comment: HTML = approval.comment.map { "<br>Comment: \($0)" } ?? .empty
            return ["\(ReviewWords.decision(approval.decision))<br><span class=\"hint\">\(Words.timeElement(approval.recordedAt))</span>\(comment)",
                    "\(approval.principal)", "\(approval.revision)", ReviewWords.standing(entry, currentRevision: report.revision)]
        }
        return DataTable(caption: "Approvals", columns: ["Decision", "By", "Revision", "Standing"], rows: rows,
                         emptyText: "No release manager has approved or rejected this fix yet.").render()
    }
}
