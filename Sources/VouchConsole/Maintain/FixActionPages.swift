import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// Start testing, revise and abandon: each a page that says what will happen and to whom, then the POST that does it
/// (`/console/fixes/{key}/start|revise|abandon`).
struct FixActionPages {
    let routes: ConsoleRoutes
    let lookup: MaintainerLookup
    let services: Services

    var store: any Store { lookup.store }

    static let noteFields = FormFields([("note", "What changed")])

    func register(in router: inout APIRouter) {
        for action in MaintainerAction.allCases {
            routes.form(&router, "/console/fixes/{key}/\(action.rawValue)", .permission(.editFixes),
                        show: { try confirm($0, action) }, submit: { try perform($0, action) })
        }
    }

    func confirm(_ request: ConsoleRequest, _ action: MaintainerAction) throws -> HTTPResponse {
        let fix = try lookup.fix(request)
        guard action.isAllowed(for: fix) else { return refused(request, fix, action, status: 200) }
        return try render(request, fix, action, note: "", issues: [])
    }

    func perform(_ request: ConsoleRequest, _ action: MaintainerAction) throws -> HTTPResponse {
        let fix = try lookup.fix(request)
        let key = fix.key.rawValue
        let note = request.field("note")
        if action == .revise, note.isEmpty {
            return try render(request, fix, action, note: note, issues: [FieldIssue(field: "note", message: "Enter what changed in the new build")])
        }
        let outcome = try ServiceRefusal.attempt {
            try services.fixes.perform(action.fixAction, on: key, note: action == .revise ? note : nil, by: try request.signedIn)
        }
        switch outcome {
        case .success: return .seeOther("/console/fixes/\(key)?done=\(action.done)")
        case .failure(let refusal) where refusal.status == 422:
            return try render(request, fix, action, note: note, issues: FixActionPages.noteFields.issues(from: refusal.issues))
        // Someone else moved the fix meanwhile: say where it is now, in words.
        case .failure(let refusal) where refusal.status == 409: return refused(request, try lookup.fix(request), action, status: 409)
        case .failure(let refusal): throw refusal.problem
        }
    }

    private func render(_ request: ConsoleRequest, _ fix: Fix, _ action: MaintainerAction, note: String, issues: [FieldIssue]) throws -> HTTPResponse {
        let key = fix.key.rawValue
        let noteField: HTML = action == .revise
            ? TextArea(name: "note", label: "What changed", hint: "Such as the new build's number and what it changes. Up to 1000 characters; it is kept in the audit log.",
                       value: note, issue: issues.first { $0.field == "note" }, rows: 3).render()
            : .empty
        return Confirmation(title: action.question(fix.title), back: BackLink(href: "/console/fixes/\(key)", text: "Back to the fix"),
                            consequences: try consequences(of: action, for: fix), action: "/console/fixes/\(key)/\(action.rawValue)",
                            button: Button(action.button, kind: action == .abandon ? .warning : .primary), fields: noteField, issues: issues)
            .response(request)
    }

    /// What the action does, to whom, in words and numbers.
    private func consequences(of action: MaintainerAction, for fix: Fix) throws -> HTML {
        let revision = fix.revision
        let key = fix.key.rawValue
        switch action {
        case .start:
            let testers = try store.enrollments(of: key).count
            let targets = try store.targets(of: key).count
            let newRevision: HTML = fix.state == .rolledBack
                ? "<li>Testing starts on a new revision, \(revision + 1): feedback and approvals for revision \(revision) no longer count.</li>" : .empty
            let nobody: HTML = testers + targets == 0
                ? WarningText("No tester is enrolled and no key is targeted directly, so for now the flag stays off for everyone.").render() + """
                <p class="body"><a href="/console/fixes/\(key)/enrollments">Enroll testers<span class="visually-hidden"> in this fix</span></a> or <a href="/console/fixes/\(key)/targets">add direct targets</a>, before or after you start.</p>
                """
                : .empty
            return """
            <ul class="list">
            <li>The flag turns on for the targeting keys of the \(count(testers, "tester")) enrolled in this fix and for its \(count(targets, "direct target")). Everyone else still gets it off.</li>
            \(newRevision)
            <li>Enrolled testers find the fix in their console and can tell you how it works with their assistive technology.</li>
            </ul>
            \(nobody)
            """
        case .revise:
            return """
            <p class="body">Revise the fix when its implementation changes, such as a new build.</p>
            <ul class="list">
            <li>The fix goes from revision \(revision) to revision \(revision + 1) and keeps its state, \(Words.state(fix.state)).</li>
            <li>Approvals given for revision \(revision) no longer count: a release manager must approve again.</li>
            <li>Only feedback on revision \(revision + 1) counts towards the criteria from then on, so testers need to try the new build.</li>
            </ul>
            """
        case .abandon:
            return """
            <ul class="list">
            <li>The flag turns off for everyone, for good: an abandoned fix cannot be started again.</li>
            <li>Enrolled testers no longer see it in their console. Their feedback and the audit log are kept.</li>
            </ul>
            \(WarningText("You cannot undo this.").render())
            """
        }
    }

    /// The action is not possible in the fix's state: say so, with the state and when it is possible.
    private func refused(_ request: ConsoleRequest, _ fix: Fix, _ action: MaintainerAction, status: Int) -> HTTPResponse {
        let key = fix.key.rawValue
        var response = request.page(action.refusal, backLink: BackLink(href: "/console/fixes/\(key)", text: "Back to the fix"), content: """
        <h1 class="heading-l">\(action.refusal)</h1>
        <p class="body">State of the fix: \(Words.stateTag(fix.state).render())</p>
        <p class="body">\(action.rule)</p>
        <p class="body"><a href="/console/fixes/\(key)">Go to the fix<span class="visually-hidden"> \(fix.title)</span></a></p>
        """)
        response.status = status
        return response
    }

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
