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
        routes.get(&router, "/console/my-data/consent", .tester, consentText)
        routes.get(&router, "/console/my-data/withdraw", .tester, confirmWithdrawal)
        routes.post(&router, "/console/my-data/withdraw", .tester, withdraw)
        routes.get(&router, "/console/withdrawn", .anyone, withdrawn)
    }

    func page(_ request: ConsoleRequest) throws -> HTTPResponse {
        let export = try store.exportTester(try request.testerID)
        let tester = export.tester
        let messages = request.messages
        let technologies = tester.assistiveTech.map { profile -> HTML in
            var names = ["technology": messages.technology(profile.technology), "platform": Words.platform(profile.platform)]
            if let version = profile.version { names["version"] = version }
            if let browser = profile.browser { names["browser"] = messages.browser(browser) }
            let key: MessageKey = switch (profile.version, profile.browser) {
            case (nil, nil): .myDataTechnologyOn
            case (_?, nil): .myDataTechnologyOnVersion
            case (nil, _?): .myDataTechnologyOnBrowser
            case (_?, _?): .myDataTechnologyOnVersionBrowser
            }
            let text = messages(key, names)
            return "<li>\(text)</li>"
        }
        let keys = tester.targetingKeys.map { key -> HTML in "<li>\(key)</li>" }
        let fixes = try export.enrollments.map { enrollment -> HTML in "<li>\(try store.fix(enrollment.fixKey).map(messages.title(of:)) ?? "\(enrollment.fixKey)")</li>" }
        let panels = export.panels.map { panel -> HTML in "<li>\(panel.name)</li>" }
        let consent: HTML
        if tester.consent.givenBy == .tester, let language = tester.consent.language {
            let hers = messages(.myDataConsentHers, ["version": tester.consent.version, "date": messages.time(tester.consent.givenAt),
                                                     "language": Language(rawValue: language)?.nativeName ?? language])
            consent = "\(hers)<br><a href=\"/console/my-data/consent\">\(messages[.myDataConsentRead])</a>"
        } else {
            consent = "\(messages(.myDataConsentText, ["version": tester.consent.version, "date": messages.time(tester.consent.givenAt), "recordedBy": tester.consent.recordedBy]))"
        }
        let reports = messages.count(export.feedback.count, one: .myDataReportsOne, other: .myDataReportsOther)
        let rows = [
            SummaryList.Row(messages[.myDataTesterNumber], text: tester.id),
            SummaryList.Row(messages[.myDataName], text: tester.name ?? messages[.myDataNotKept]),
            SummaryList.Row(messages[.myDataContact], text: tester.contact ?? messages[.myDataNotGiven]),
            SummaryList.Row(messages[.myDataEmail], text: tester.email ?? messages[.myDataNotGiven]),
            SummaryList.Row(messages[.myDataTechnology], MyDataPages.list(technologies, empty: messages[.myDataNoneNoted])),
            SummaryList.Row(messages[.myDataAccounts], MyDataPages.list(keys, empty: messages[.myDataNone])),
            SummaryList.Row(messages[.myDataConsent], consent),
            SummaryList.Row(messages[.myDataFixes], MyDataPages.list(fixes, empty: messages[.myDataNoneNow])),
            SummaryList.Row(messages[.myDataPanels], MyDataPages.list(panels, empty: messages[.myDataNone])),
            SummaryList.Row(messages[.myDataFeedback], "\(reports)<br><a href=\"/console/my-feedback\">\(messages[.myDataSeeFeedback])</a>"),
        ]
        return request.translatedPage(messages[.myDataTitle], content: """
        <h1 class="heading-l">\(messages[.myDataTitle])</h1>
        <p class="body">\(messages[.myDataIntro])</p>
        \(SummaryList(rows).render(messages))
        <h2 class="heading-m">\(messages[.myDataDownloadTitle])</h2>
        <p class="body">\(messages[.myDataDownloadText])</p>
        <p class="body"><a href="/console/my-data/export" download="vouch-my-data.json">\(messages[.myDataDownloadLink])</a></p>
        <h2 class="heading-m">\(messages[.myDataStopTitle])</h2>
        <p class="body">\(messages[.myDataStopText])</p>
        <p class="body"><a href="/console/my-data/withdraw" class="button button--secondary">\(messages[.myDataStopButton])</a></p>
        """)
    }

    /// The consent text she agreed to, word for word as she read it, in the language she read it in.
    func consentText(_ request: ConsoleRequest) throws -> HTTPResponse {
        guard let tester = try store.tester(try request.testerID), tester.consent.givenBy == .tester, let language = tester.consent.language,
              let agreed = try store.agreedConsentText(version: tester.consent.version, language: language) else {
            throw Problem(status: 404, detail: "your consent was noted by the team, so there is no text of it here; ask the person who invited you")
        }
        let messages = request.messages
        return request.translatedPage(messages[.myDataConsentTitle], backLink: BackLink(href: "/console/my-data", text: messages[.backLinkText]),
                                      content: """
        <h1 class="heading-l">\(messages[.myDataConsentTitle])</h1>
        <p class="caption">\(messages(.joinTextVersion, ["version": agreed.text.version]))</p>
        \(ConsentTextView(text: agreed.text).render())
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
        let messages = request.messages
        // With no feedback there is nothing to choose about it.
        let purge: HTML = feedback == 0 ? .empty : CheckboxGroup(name: "purge_feedback", legend: messages[.withdrawFeedbackLegend], options: [
            RadioGroup.Option("true", messages[.withdrawPurge],
                              hint: messages.count(feedback, one: .withdrawPurgeHintOne, other: .withdrawPurgeHintOther)),
        ]).render(messages)
        let form = request.form("/console/my-data/withdraw", purge + """
        \(WarningText(messages[.withdrawCannotUndo]).render(messages))
        <div class="button-group">
        \(Button(messages[.myDataStopButton], kind: .warning).render())
        <a href="/console/my-data">\(messages[.withdrawCancel])</a>
        </div>
        """)
        let endsFixes: HTML = enrollments == 0 ? .empty
            : "<li>\(messages.count(enrollments, one: .withdrawEndsFixesOne, other: .withdrawEndsFixesOther))</li>"
        return request.translatedPage(messages[.withdrawTitle], backLink: BackLink(href: "/console/my-data"), content: """
        <h1 class="heading-l">\(messages[.withdrawTitle])</h1>
        <p class="body">\(messages[.withdrawAtOnce])</p>
        <ul class="list">
        <li>\(messages[.withdrawDeletesPersonal])</li>
        <li>\(messages[.withdrawRemovesAccounts])</li>
        \(endsFixes)
        <li>\(messages[.withdrawStopsLinks])</li>
        <li>\(messages[.withdrawDeletesDetails])</li>
        </ul>
        <p class="body">\(messages[.withdrawWhatStays])</p>
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
        let messages = request.messages
        return request.translatedPage(messages[.withdrawnTitle], content: """
        <h1 class="heading-l">\(messages[.withdrawnTitle])</h1>
        <p class="body">\(messages[.withdrawnText])</p>
        <p class="body">\(messages[.withdrawnThanks])</p>
        """)
    }

    static func list(_ items: [HTML], empty: String) -> HTML {
        items.isEmpty ? "\(empty)" : "<ul class=\"list list--plain\">\(items)</ul>"
    }
}
