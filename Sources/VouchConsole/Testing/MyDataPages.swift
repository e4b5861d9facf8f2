import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/console/my-data`: what Vouch keeps about her, a copy to download (GDPR Art. 15 and 20), and withdrawal with
/// erasure (Art. 7(3) and 17) through a confirmation page that says what goes and what stays.
struct MyDataPages {
    let routes: ConsoleRoutes
    let store: any Store
    let services: Services
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/my-data", .tester, page)
        routes.get(&router, "/console/my-data/export", .tester, download)
        routes.get(&router, "/console/my-data/withdraw", .tester, confirmWithdrawal)
        routes.post(&router, "/console/my-data/withdraw", .tester, withdraw)
        routes.get(&router, "/console/withdrawn", .anyone, withdrawn)
    }

    func page(_ request: ConsoleRequest) throws -> HTTPResponse {
        let export = try store.exportTester(try request.testerID)
        let tester = export.tester
        let technologies = tester.assistiveTech.map { profile -> HTML in
            let version = profile.version.map { ", version \($0)" } ?? ""
            return "<li>\(FeedbackWording.technologyName(profile.technology)) on \(Words.platform(profile.platform))\(version)</li>"
        }
        let keys = tester.targetingKeys.map { key -> HTML in "<li>\(key)</li>" }
        let fixes = try export.enrollments.map { enrollment -> HTML in "<li>\(try store.fix(enrollment.fixKey)?.title ?? enrollment.fixKey)</li>" }
        let rows = [
            SummaryList.Row("Your tester number", text: tester.id),
            SummaryList.Row("Name", text: tester.name ?? "Not kept"),
            SummaryList.Row("Contact", text: tester.contact ?? "Not given"),
            SummaryList.Row("Assistive technology", MyDataPages.list(technologies, empty: "None noted")),
            SummaryList.Row("Your accounts in the app", MyDataPages.list(keys, empty: "None")),
            SummaryList.Row("Consent", text: "Version \(tester.consent.version), given on \(Words.time(tester.consent.givenAt)), noted by \(tester.consent.recordedBy)"),
            SummaryList.Row("Fixes you test", MyDataPages.list(fixes, empty: "None at the moment")),
            SummaryList.Row("Feedback you sent", "\(export.feedback.count) \(export.feedback.count == 1 ? "report" : "reports"). <a href=\"/console/my-feedback\">See your feedback</a>"),
        ]
        return request.page("Your data", content: """
        <h1 class="heading-l">Your data</h1>
        <p class="body">This is what Vouch keeps about you. Which assistive technology you use is health data: only you and the team members who manage testers see it, and it never leaves Vouch with your feedback. To correct anything, ask the person who invited you.</p>
        \(SummaryList(rows).render())
        <h2 class="heading-m">Download your data</h2>
        <p class="body">A copy of everything above and all your feedback, as a JSON file you can keep or give to another service.</p>
        <p class="body"><a href="/console/my-data/export" download="vouch-my-data.json">Download your data (JSON file)</a></p>
        <h2 class="heading-m">Stop testing</h2>
        <p class="body">You can stop at any time, without giving a reason. Vouch then deletes your personal data.</p>
        <p class="body"><a href="/console/my-data/withdraw" class="button button--secondary">Stop testing and delete my data</a></p>
        """)
    }

    /// The API's own export, as a file to save.
    func download(_ request: ConsoleRequest) throws -> HTTPResponse {
        let export = try services.testers.export(try request.testerID, for: try request.signedIn)
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/json; charset=utf-8"),
                                                   (name: "Content-Disposition", value: "attachment; filename=\"vouch-my-data.json\"")],
                            body: JSONWriter.bytes(export.jsonValue(exportedAt: clock()), pretty: true))
    }

    func confirmWithdrawal(_ request: ConsoleRequest) throws -> HTTPResponse {
        let export = try store.exportTester(try request.testerID)
        let (enrollments, feedback) = (export.enrollments.count, export.feedback.count)
        // With no feedback there is nothing to choose about it.
        let purge: HTML = feedback == 0 ? .empty : CheckboxGroup(name: "purge_feedback", legend: "Your feedback", options: [
            RadioGroup.Option("true", "Also delete whether each fix worked for me",
                              hint: "Then nothing of your \(feedback) \(feedback == 1 ? "report" : "reports") stays. The team can no longer explain past decisions with your answers."),
        ]).render()
        let form = request.form("/console/my-data/withdraw", purge + """
        \(WarningText("You cannot undo this. To test again, you would need to be invited again.").render())
        <div class="button-group">
        \(Button("Stop testing and delete my data", kind: .warning).render())
        <a href="/console/my-data">Cancel</a>
        </div>
        """)
        return request.page("Are you sure you want to stop testing?", backLink: BackLink(href: "/console/my-data"), content: """
        <h1 class="heading-l">Are you sure you want to stop testing?</h1>
        <p class="body">If you stop, Vouch at once:</p>
        <ul class="list">
        <li>deletes your name, your contact and the assistive technology you use</li>
        <li>removes your accounts in the app, so fixes are no longer switched on for you</li>
        \(enrollments == 0 ? HTML.empty : "<li>ends your part in the \(enrollments) \(enrollments == 1 ? "fix" : "fixes") you test</li>")
        <li>stops your personal links and signs you out</li>
        <li>deletes your comments, what you heard, and your device and version details from your feedback</li>
        </ul>
        <p class="body">What stays, with no link to you: whether each fix worked, whether you could do the task, and how bad the problems were. The team sees it as from a “withdrawn” tester, so decisions already made can still be explained.</p>
        \(form)
        """)
    }

    func withdraw(_ request: ConsoleRequest) throws -> HTTPResponse {
        let testerID = try request.testerID
        let purge = request.field("purge_feedback") == "true"
        _ = try services.testers.withdraw(testerID, purgeFeedback: purge, by: try request.signedIn)
        // Withdrawal already deleted her sessions with her links; the cookie goes too.
        return .seeOther("/console/withdrawn", headers: [try routes.sessions.end(request.http, secure: routes.sessions.isSecure(request.http))])
    }

    func withdrawn(_ request: ConsoleRequest) throws -> HTTPResponse {
        request.page("You have stopped testing", content: """
        <h1 class="heading-l">You have stopped testing</h1>
        <p class="body">Your personal data was deleted and you are signed out. Your personal links no longer work, and no fix is switched on for you any more.</p>
        <p class="body">Thank you for the time you gave to make apps work better with assistive technology.</p>
        """)
    }

    static func list(_ items: [HTML], empty: String) -> HTML {
        items.isEmpty ? "\(empty)" : "<ul class=\"list list--plain\">\(items)</ul>"
    }
}
