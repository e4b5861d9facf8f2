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
        let purge = CheckboxGroup(name: "purge_feedback", legend: "Their feedback", options: [
            RadioGroup.Option("yes", "Also delete their feedback", hint: "Only if they asked for it. Past promotion decisions then lose the evidence they rested on."),
        ])
        return Confirmation(title: "Withdraw \(TesterWords.name(tester))?", back: BackLink(href: "/console/testers/\(tester.id)", text: "Back to the tester"),
                            consequences: """
        <p class="body">Withdraw a tester when they ask to stop taking part. At once, Vouch:</p>
        <ul class="list">
        <li>erases their name, contact, assistive technology and targeting keys, also where a key was a fix's direct target</li>
        <li>removes them from every fix, so the flags turn off for their keys</li>
        <li>revokes their tokens and personal links, which ends their console sessions</li>
        <li>removes the comments and device details from their feedback; the verdicts stay, marked as from a withdrawn tester, so past decisions can still be explained</li>
        </ul>
        \(WarningText("You cannot undo this.").render())
        """, action: "/console/testers/\(tester.id)/withdraw", button: Button("Withdraw tester", kind: .warning), fields: purge.render())
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
