import VouchConsoleKit
import VouchDomain

/// The latest feedback of each tester on the current revision: the evidence the criteria count. Testers appear by
/// pseudonym only; the assistive technology is the one the report was made with, as the API's feedback list gives it.
struct FeedbackSection {
    let latest: [Feedback]
    let revision: Int
    var messages: Messages = .english

    func render() -> HTML {
        let revisionNumber = ["revision": messages.number(revision)]
        let rows = latest.sorted { $0.recordedAt > $1.recordedAt }.map { feedback -> [HTML] in
            let tester = feedback.testerID ?? messages[.latestWithdrawn]
            // English keeps the evidence's own names ("braille display" in mid-sentence, as the API's list says it).
            let technologyName = messages.language == .en ? feedback.assistiveTech.displayName : messages.technology(feedback.assistiveTech)
            let names = ["technology": technologyName, "platform": Words.platform(feedback.platform)]
            let technology = feedback.browser.map { messages(.latestTechnologyOnWith, names.merging(["browser": messages.browser($0)]) { $1 }) }
                ?? messages(.latestTechnologyOn, names)
            var severity = ReviewWords.severity(feedback.severity, messages)
            if feedback.regression { severity = messages(.latestSomethingBroke, ["severity": severity]) }
            let blocking: HTML = feedback.isBlocking ? " \(StatusTag(messages[.latestBlocking], tone: .bad).render())" : .empty
            // Staff who opened the tester's link entered this, not the tester: the evidence says so where it is weighed.
            let enteredBy: HTML = feedback.link?.openedBy.map {
                "<br><strong>\(messages(.latestEnteredBy, ["name": $0]))</strong>"
            } ?? .empty
            return ["\(tester)<br><span class=\"hint\">\(technology)</span>\(enteredBy)", "\(ReviewWords.verdict(feedback.verdict, messages))",
                    "\(severity)\(blocking)", messages.staffTimeElement(feedback.recordedAt)]
        }
        return DataTable(caption: messages(.latestCaption, revisionNumber),
                         columns: [messages[.latestTester], messages[.latestVerdict], messages[.latestSeverity], messages[.latestRecorded]],
                         rows: rows, emptyText: messages(.latestEmpty, revisionNumber)).render()
    }
}
