import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// The testers enrolled in a fix: enroll more, or remove one after a confirmation
/// (`/console/fixes/{key}/enrollments`, `/console/fixes/{key}/enrollments/{tester}/remove`).
struct EnrollmentPages {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    static func fields(_ messages: Messages) -> FormFields { FormFields([("testers", messages[.enrollmentsFieldLabel])]) }
    /// More testers than this are enrolled with `vouch enroll`; the API takes 500 per request.
    static let listedTesters = 500

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/fixes/{key}/enrollments", .permission(.manageTesters), show: show, submit: enroll)
        routes.form(&router, "/console/fixes/{key}/enrollments/{tester}/remove", .permission(.manageTesters), show: confirmRemoval, submit: remove)
    }

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let banner: NotificationBanner? = switch request.http.query["done"] {
        case "enrolled": NotificationBanner(.success, heading: messages[.enrollmentsEnrolled],
                                            body: "<p class=\"body\">\(messages[.enrollmentsEnrolledText])</p>")
        case "unenrolled": NotificationBanner(.success, heading: messages[.enrollmentsRemoved])
        default: nil
        }
        return try render(request, fix: try lookup.fix(request), chosen: [], issues: [], banner: banner)
    }

    func enroll(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try lookup.fix(request)
        let key = fix.key.rawValue
        let chosen = request.form.values("testers")
        guard !chosen.isEmpty else {
            return try render(request, fix: fix, chosen: [], issues: [FieldIssue(field: "testers", message: request.messages[.enrollmentsSelectOne])], banner: nil)
        }
        switch try ServiceRefusal.attempt({ try services.enrollments.enroll(chosen, in: key, by: try request.signedIn) }) {
        case .success: return .seeOther("/console/fixes/\(key)/enrollments?done=enrolled")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return try render(request, fix: fix, chosen: Set(chosen),
                              issues: EnrollmentPages.fields(request.messages).issues(from: refusal.issues, messages: request.messages), banner: nil)
        }
    }

    private func render(_ request: ConsoleRequest, fix: Fix, chosen: Set<String>, issues: [FieldIssue], banner: NotificationBanner?) throws -> HTTPResponse {
        let key = fix.key.rawValue
        let messages = request.messages
        let enrolled = try lookup.store.enrollments(of: key)
        let enrolledIDs = Set(enrolled.map(\.testerID))
        let rows = try enrolled.map { enrollment -> [HTML] in
            let name = try lookup.store.tester(enrollment.testerID).map { TesterWords.name($0, messages) } ?? messages[.enrollmentsUnknown]
            return ["<a href=\"/console/testers/\(enrollment.testerID)\">\(name)</a>", "\(enrollment.testerID)",
                    "<a href=\"/console/fixes/\(key)/enrollments/\(enrollment.testerID)/remove\">\(messages[.enrollmentsRemove])<span class=\"visually-hidden\"> \(messages(.enrollmentsRemoveHidden, ["name": name]))</span></a>"]
        }
        let table = DataTable(caption: messages[.enrollmentsCaption], columns: [messages[.enrollmentsTester], messages[.enrollmentsPseudonym], messages[.enrollmentsAction]],
                              rows: rows, emptyText: messages[.enrollmentsEmpty])
        let candidates = try lookup.activeTesters(limit: EnrollmentPages.listedTesters).filter { !enrolledIDs.contains($0.id) }
        let enrollForm: HTML = candidates.isEmpty
            ? "<h2 class=\"heading-m\">\(messages[.enrollmentsEnrollTitle])</h2><p class=\"body\">\(messages[.enrollmentsAllEnrolled]) <a href=\"/console/testers/new\">\(messages[.enrollmentsAddTester])</a></p>"
            : TesterChoice(legend: messages[.enrollmentsEnrollTitle], hint: messages[.enrollmentsEnrollHint], button: messages[.enrollmentsEnrollButton])
                .form(request, action: "/console/fixes/\(key)/enrollments", candidates: candidates, chosen: chosen, issue: issues.first { $0.field == "testers" })
        return request.translatedPage(messages(.enrollmentsTitle, ["title": fix.title]), issues: issues,
                                      backLink: BackLink(href: "/console/fixes/\(key)", text: messages[.decisionBackToFix]), banner: banner, content: """
        <h1 class="heading-l">\(messages.html(.enrollmentsTitle, ["title": messages.title(of: fix)]))</h1>
        <p class="body">\(messages[.enrollmentsIntro])</p>
        <p class="body">\(messages.html(.enrollmentsStateOfFix, ["state": Words.stateTag(fix.state, messages).render()]))</p>
        \(table.render())
        \(enrollForm)
        """)
    }

    func confirmRemoval(_ request: ConsoleRequest) throws -> HTTPResponse {
        let (fix, tester) = try enrollment(request)
        let key = fix.key.rawValue
        let messages = request.messages
        let name = TesterWords.name(tester, messages)
        return Confirmation(title: messages(.enrollmentsRemoveQuestion, ["name": name, "title": fix.title]),
                            heading: messages.html(.enrollmentsRemoveQuestion, ["name": "\(name)", "title": messages.title(of: fix)]),
                            back: BackLink(href: "/console/fixes/\(key)/enrollments", text: messages[.enrollmentsBackToEnrolled]), consequences: """
            <ul class="list">
            <li>\(messages(.enrollmentsRemoveFlag, ["name": name]))</li>
            <li>\(messages(.enrollmentsRemoveKept, ["name": name, "tester": messages.shortID(tester.id)]))</li>
            </ul>
            """, action: "/console/fixes/\(key)/enrollments/\(tester.id)/remove", button: Button(messages[.enrollmentsRemoveButton], kind: .warning))
            .response(request)
    }

    func remove(_ request: ConsoleRequest) throws -> HTTPResponse {
        let (fix, tester) = try enrollment(request)
        let key = fix.key.rawValue
        _ = try services.enrollments.unenroll(tester.id, from: key, by: try request.signedIn)
        return .seeOther("/console/fixes/\(key)/enrollments?done=unenrolled")
    }

    /// The fix and the tester the address names, when the tester is enrolled in the fix; otherwise a 404 page.
    private func enrollment(_ request: ConsoleRequest) throws -> (Fix, Tester) {
        let fix = try lookup.fix(request)
        let id = request.parameter("tester")
        guard try lookup.store.enrollments(of: fix.key.rawValue).contains(where: { $0.testerID == id }), let tester = try lookup.store.tester(id) else {
            throw Problem(status: 404, detail: "tester '\(id)' is not enrolled in the fix \(fix.key.rawValue)")
        }
        return (fix, tester)
    }
}
