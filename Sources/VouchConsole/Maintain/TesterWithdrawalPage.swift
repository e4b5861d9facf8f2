import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// Withdrawing a tester on their behalf, after a page that says what is erased and what stays
/// (`/console/testers/{id}/withdraw`).
struct TesterWithdrawalPage {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/testers/{id}/withdraw", .permission(.manageTesters), show: confirm, submit: withdraw)
    }

    func confirm(_ request: ConsoleRequest) throws -> HTTPResponse {
        let tester = try activeTester(request)
        let messages = request.messages
        let purge = CheckboxGroup(name: "purge_feedback", legend: messages[.withdrawTesterFeedback], options: [
            RadioGroup.Option("yes", messages[.withdrawTesterPurge], hint: messages[.withdrawTesterPurgeHint]),
        ])
        return Confirmation(title: messages(.withdrawTesterQuestion, ["name": TesterWords.name(tester, messages)]),
                            back: BackLink(href: "/console/testers/\(tester.id)", text: messages[.withdrawTesterBack]),
                            consequences: """
        <p class="body">\(messages[.withdrawTesterAtOnce])</p>
        <ul class="list">
        <li>\(messages[.withdrawTesterErases])</li>
        <li>\(messages[.withdrawTesterRemoves])</li>
        <li>\(messages[.withdrawTesterRevokes])</li>
        <li>\(messages[.withdrawTesterComments])</li>
        </ul>
        \(WarningText(messages[.maintainerCannotUndo]).render(messages))
        """, action: "/console/testers/\(tester.id)/withdraw", button: Button(messages[.withdrawTesterButton], kind: .warning),
                            fields: purge.render(messages))
            .response(request)
    }

    func withdraw(_ request: ConsoleRequest) throws -> HTTPResponse {
        let tester = try activeTester(request)
        let purge = request.form.values("purge_feedback").contains("yes")
        _ = try services.testers.withdraw(tester.id, purgeFeedback: purge, by: try request.signedIn)
        return .seeOther("/console/testers/\(tester.id)?done=withdrawn")
    }

    private func activeTester(_ request: ConsoleRequest) throws -> Tester {
        let tester = try lookup.tester(request)
        guard tester.isActive else { throw Problem(status: 409, detail: "the tester \(tester.id) has already withdrawn; their personal data was erased") }
        return tester
    }
}
