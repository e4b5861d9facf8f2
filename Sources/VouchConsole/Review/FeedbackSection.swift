import VouchConsoleKit
import VouchDomain

/// The latest feedback of each tester on the current revision: the evidence the criteria count. Testers appear by
/// pseudonym only; the assistive technology is the one the report was made with, as the API's feedback list gives it.
struct FeedbackSection {
    let latest: [Feedback]
    let revision: Int

    func render() -> HTML {
        let rows = latest.sorted { $0.recordedAt > $1.recordedAt }.map { feedback -> [HTML] in
            let tester = feedback.testerID ?? "A tester who withdrew"
            let technology = "\(feedback.assistiveTech.displayName) on \(Words.platform(feedback.platform))"
                + (feedback.browser.map { " with \(Words.browser($0))" } ?? "")
            var severity = ReviewWords.severity(feedback.severity)
            if feedback.regression { severity += "; something else broke" }
            let blocking: HTML = feedback.isBlocking ? " \(StatusTag("Blocking", tone: .bad).render())" : .empty
            // Staff who opened the tester's link entered this, not the tester: the evidence says so where it is weighed.
            let enteredBy: HTML = feedback.link?.openedBy.map {
                "<br><strong>Entered by \($0) on the tester's personal link, not by the tester</strong>"
            } ?? .empty
            return ["\(tester)<br><span class=\"hint\">\(technology)</span>\(enteredBy)", "\(ReviewWords.verdict(feedback.verdict))",
                    "\(severity)\(blocking)", Words.timeElement(feedback.recordedAt)]
        }
        return DataTable(caption: "Latest feedback per tester on revision \(revision)", columns: ["Tester", "Verdict", "Severity", "Recorded"],
                         rows: rows, emptyText: "No tester has sent feedback on revision \(revision) yet.").render()
    }
}
