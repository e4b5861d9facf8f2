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

    static let fields = FormFields([("testers", "Testers to enroll")])
    /// More testers than this are enrolled with `vouch enroll`; the API takes 500 per request.
    static let listedTesters = 500

    func register(in router: inout APIRouter) {
        routes.form(&router, "/console/fixes/{key}/enrollments", .permission(.manageTesters), show: show, submit: enroll)
        routes.form(&router, "/console/fixes/{key}/enrollments/{tester}/remove", .permission(.manageTesters), show: confirmRemoval, submit: remove)
    }

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let banner: NotificationBanner? = switch request.http.query["done"] {
        case "enrolled": NotificationBanner(.success, heading: "Testers enrolled",
                                            body: "<p class=\"body\">While the fix is in testing, the flag is on for their targeting keys and they find the fix in their console.</p>")
        case "unenrolled": NotificationBanner(.success, heading: "Tester removed from this fix")
        default: nil
        }
        return try render(request, fix: try lookup.fix(request), chosen: [], issues: [], banner: banner)
    }

    func enroll(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try lookup.fix(request)
        let key = fix.key.rawValue
        let chosen = request.form.values("testers")
        guard !chosen.isEmpty else {
            return try render(request, fix: fix, chosen: [], issues: [FieldIssue(field: "testers", message: "Select at least one tester to enroll")], banner: nil)
        }
        switch try ServiceRefusal.attempt({ try services.enrollments.enroll(chosen, in: key, by: try request.signedIn) }) {
        case .success: return .seeOther("/console/fixes/\(key)/enrollments?done=enrolled")
        case .failure(let refusal):
            guard refusal.status == 422 else { throw refusal.problem }
            return try render(request, fix: fix, chosen: Set(chosen), issues: EnrollmentPages.fields.issues(from: refusal.issues), banner: nil)
        }
    }

    private func render(_ request: ConsoleRequest, fix: Fix, chosen: Set<String>, issues: [FieldIssue], banner: NotificationBanner?) throws -> HTTPResponse {
        let key = fix.key.rawValue
        let enrolled = try lookup.store.enrollments(of: key)
        let enrolledIDs = Set(enrolled.map(\.testerID))
        let rows = try enrolled.map { enrollment -> [HTML] in
            let name = try lookup.store.tester(enrollment.testerID).map(TesterWords.name) ?? "Unknown tester"
            return ["<a href=\"/console/testers/\(enrollment.testerID)\">\(name)</a>", "\(enrollment.testerID)",
                    "<a href=\"/console/fixes/\(key)/enrollments/\(enrollment.testerID)/remove\">Remove<span class=\"visually-hidden\"> \(name) from this fix</span></a>"]
        }
        let table = DataTable(caption: "Enrolled testers", columns: ["Tester", "Pseudonym", "Action"], rows: rows,
                              emptyText: "No tester is enrolled yet.")
        let candidates = try lookup.activeTesters(limit: EnrollmentPages.listedTesters).filter { !enrolledIDs.contains($0.id) }
        let enrollForm: HTML = candidates.isEmpty
            ? "<h2 class=\"heading-m\">Enroll testers</h2><p class=\"body\">Every active tester is enrolled already. <a href=\"/console/testers/new\">Add a tester</a></p>"
            : request.form("/console/fixes/\(key)/enrollments", CheckboxGroup(
                name: "testers", legend: "Enroll testers", heading: .sectionHeading,
                hint: "Select the testers who should try this fix. Only active testers are listed.",
                options: candidates.map { RadioGroup.Option($0.id, "\(TesterWords.name($0)) (\($0.id))", hint: TesterWords.assistiveTech(of: $0)) },
                selected: chosen, issue: issues.first { $0.field == "testers" }).render() + Button("Enroll selected testers").render())
        let title = "Enrolled testers: \(fix.title)"
        return request.page(title, issues: issues, backLink: BackLink(href: "/console/fixes/\(key)", text: "Back to the fix"), banner: banner, content: """
        <h1 class="heading-l">\(title)</h1>
        <p class="body">While the fix is in testing, its flag is on for the targeting keys of every tester enrolled here, and they find the fix in their console.</p>
        <p class="body">State of the fix: \(Words.stateTag(fix.state).render())</p>
        \(table.render())
        \(enrollForm)
        """)
    }

    func confirmRemoval(_ request: ConsoleRequest) throws -> HTTPResponse {
        let (fix, tester) = try enrollment(request)
        let key = fix.key.rawValue
        let name = TesterWords.name(tester)
        return Confirmation(title: "Remove \(name) from \(fix.title)?",
                            back: BackLink(href: "/console/fixes/\(key)/enrollments", text: "Back to enrolled testers"), consequences: """
            <ul class="list">
            <li>The flag turns off for \(name)'s targeting keys, unless a key is also a direct target of the fix.</li>
            <li>The fix leaves \(name)'s console. Feedback already given (tester \(Words.shortID(tester.id))) is kept.</li>
            </ul>
            """, action: "/console/fixes/\(key)/enrollments/\(tester.id)/remove", button: Button("Remove from this fix", kind: .warning))
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
