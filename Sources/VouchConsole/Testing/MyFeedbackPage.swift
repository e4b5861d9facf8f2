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
        var titles: [String: String] = [:]
        for key in enrolled { titles[key] = try store.fix(key)?.title }
        let rows = feedback.map { record -> [HTML] in
            // A fix she no longer tests is named by its key alone: its page is not hers to open any more.
            let fix: HTML = titles[record.fixKey].map { "<a href=\"/console/testing/\(record.fixKey)\">\($0)</a>" } ?? "\(record.fixKey)"
            return [fix, "\(record.revision)", "\(Words.verdict(record.verdict))", Words.timeElement(record.recordedAt)]
        }
        let table = DataTable(caption: "Feedback you sent, newest first", columns: ["Fix", "Version", "Did it work?", "Sent"], rows: rows,
                              emptyText: "You have not sent any feedback yet. Your fixes are on the start page.")
        return request.page("Your feedback", content: """
        <h1 class="heading-l">Your feedback</h1>
        <p class="body">Everything you told the team about the fixes you test. For each version of a fix, your latest feedback is the one that counts.</p>
        \(table.render())
        """)
    }
}
