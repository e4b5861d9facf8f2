import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchStore

/// `/console/my-feedback`: the feedback she sent, newest first; never anyone else's.
struct MyFeedbackPage {
    let routes: ConsoleRoutes
    let store: any Store

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/my-feedback", .tester, page)
    }

    func page(_ request: ConsoleRequest) throws -> HTTPResponse {
        let testerID = try request.testerID
        let feedback = try store.exportTester(testerID).feedback.reversed()
        let enrolled = Set(try store.enrolledFixes(of: testerID))
        let messages = request.messages
        var titles: [String: HTML] = [:]
        for key in enrolled { titles[key] = try store.fix(key).map(messages.title(of:)) }
        let rows = feedback.map { record -> [HTML] in
            // A fix she no longer tests is named by its key alone: its page is not hers to open any more.
            let fix: HTML = titles[record.fixKey].map { "<a href=\"/console/testing/\(record.fixKey)\">\($0)</a>" } ?? "\(record.fixKey)"
            return [fix, "\(messages.number(record.revision))", "\(messages.verdict(record.verdict))", messages.timeElement(record.recordedAt)]
        }
        let table = DataTable(caption: messages[.myFeedbackCaption],
                              columns: [messages[.myFeedbackFix], messages[.fixVersion], messages[.myFeedbackDidItWork], messages[.myFeedbackSent]],
                              rows: rows, emptyText: messages[.myFeedbackEmpty])
        return request.translatedPage(messages[.myFeedbackTitle], content: """
        <h1 class="heading-l">\(messages[.myFeedbackTitle])</h1>
        <p class="body">\(messages[.myFeedbackIntro])</p>
        \(table.render())
        """)
    }
}
