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

    static func noteFields(_ messages: Messages) -> FormFields { FormFields([("note", messages[.maintainerWhatChanged])]) }

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
            return try render(request, fix, action, note: note, issues: [FieldIssue(field: "note", message: request.messages[.maintainerEnterWhatChanged])])
        }
        let outcome = try ServiceRefusal.attempt {
            try services.fixes.perform(action.fixAction, on: key, note: action == .revise ? note : nil, by: try request.signedIn)
        }
        switch outcome {
        case .success: return .seeOther("/console/fixes/\(key)?done=\(action.done)")
        case .failure(let refusal) where refusal.status == 422:
            return try render(request, fix, action, note: note, issues: FixActionPages.noteFields(request.messages).issues(from: refusal.issues, messages: request.messages))
        // Someone else moved the fix meanwhile: say where it is now, in words.
        case .failure(let refusal) where refusal.status == 409: return refused(request, try lookup.fix(request), action, status: 409)
        case .failure(let refusal): throw refusal.problem
        }
    }

    private func render(_ request: ConsoleRequest, _ fix: Fix, _ action: MaintainerAction, note: String, issues: [FieldIssue]) throws -> HTTPResponse {
        let key = fix.key.rawValue
        let messages = request.messages
        let noteField: HTML = action == .revise
            ? TextArea(name: "note", label: messages[.maintainerWhatChanged],
                       hint: messages(.maintainerWhatChangedHint, ["count": String(FixService.maxNoteLength)]),
                       value: note, issue: issues.first { $0.field == "note" }, rows: 3).render(messages)
            : .empty
        return Confirmation(title: messages(action.question, ["title": fix.title]), heading: messages.html(action.question, ["title": messages.title(of: fix)]),
                            back: BackLink(href: "/console/fixes/\(key)", text: messages[.decisionBackToFix]),
                            consequences: try consequences(of: action, for: fix, messages), action: "/console/fixes/\(key)/\(action.rawValue)",
                            button: Button(messages[action.button], kind: action == .abandon ? .warning : .primary), fields: noteField, issues: issues).response(request)
    }

    /// What the action does, to whom, in words and numbers.
    private func consequences(of action: MaintainerAction, for fix: Fix, _ messages: Messages) throws -> HTML {
        let key = fix.key.rawValue
        let revisions = ["revision": messages.number(fix.revision), "next": messages.number(fix.revision + 1)]
        switch action {
        case .start:
            let testers = try store.enrollments(of: key).count
            let targets = try store.targets(of: key).count
            let newRevision: HTML = fix.state == .rolledBack ? "<li>\(messages(.maintainerStartNewRevision, revisions))</li>" : .empty
            let enroll: HTML = "<a href=\"/console/fixes/\(key)/enrollments\">\(messages[.maintainerEnrollTesters])<span class=\"visually-hidden\"> \(messages[.maintainerInThisFix])</span></a>"
            let addTargets: HTML = "<a href=\"/console/fixes/\(key)/targets\">\(messages[.maintainerAddTargets])</a>"
            let nobody: HTML = testers + targets == 0
                ? WarningText(messages[.maintainerStartNobody]).render(messages) + """
                <p class="body">\(messages.html(.maintainerStartEnrollOr, ["enroll": enroll, "targets": addTargets]))</p>
                """
                : .empty
            let flagOn = messages(.maintainerStartFlagOn, ["testers": messages.count(testers, one: .maintainerTestersOne, other: .maintainerTestersOther),
                                                           "targets": messages.count(targets, one: .maintainerTargetsOne, other: .maintainerTargetsOther)])
            return """
            <ul class="list">
            <li>\(flagOn)</li>
            \(newRevision)
            <li>\(messages[.maintainerStartTesters])</li>
            </ul>
            \(nobody)
            """
        case .revise:
            return """
            <p class="body">\(messages[.maintainerReviseWhen])</p>
            <ul class="list">
            <li>\(messages(.maintainerReviseRevision, revisions.merging(["state": messages.state(fix.state)]) { $1 }))</li>
            <li>\(messages(.maintainerReviseApprovals, revisions))</li>
            <li>\(messages(.maintainerReviseFeedback, revisions))</li>
            </ul>
            """
        case .abandon:
            return """
            <ul class="list">
            <li>\(messages[.maintainerAbandonOff])</li>
            <li>\(messages[.maintainerAbandonKept])</li>
            </ul>
            \(WarningText(messages[.maintainerCannotUndo]).render(messages))
            """
        }
    }

    /// The action is not possible in the fix's state: say so, with the state and when it is possible.
    private func refused(_ request: ConsoleRequest, _ fix: Fix, _ action: MaintainerAction, status: Int) -> HTTPResponse {
        let key = fix.key.rawValue
        let messages = request.messages
        var response = request.translatedPage(messages[action.refusal], backLink: BackLink(href: "/console/fixes/\(key)", text: messages[.decisionBackToFix]),
                                              content: """
        <h1 class="heading-l">\(messages[action.refusal])</h1>
        <p class="body">\(messages.html(.maintainerStateOfFix, ["state": Words.stateTag(fix.state, messages).render()]))</p>
        <p class="body">\(messages[action.rule])</p>
        <p class="body"><a href="/console/fixes/\(key)">\(messages[.maintainerGoToFix])<span class="visually-hidden"> \(messages.title(of: fix))</span></a></p>
        """)
        response.status = status
        return response
    }
}
