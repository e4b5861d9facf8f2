import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServices
import VouchStore

/// `/console/fixes/{key}/pause|resume|rollback|promote|retry-promotion`: a confirmation page that names the fix,
/// its state and what the action does to the people who use the app; its POST asks the fix service to do it.
struct ReleaseActionPages {
    let store: any Store
    let promotion: PromotionService
    let services: Services

    func confirmation(_ request: ConsoleRequest, _ action: ReleaseAction) throws -> HTTPResponse {
        try render(request, action, fix: try ReviewPages.fix(request, in: store), reason: "", issues: [])
    }

    func perform(_ request: ConsoleRequest, _ action: ReleaseAction) throws -> HTTPResponse {
        let principal = try request.signedIn
        let fix = try ReviewPages.fix(request, in: store)
        let reason = request.field("reason")
        if action == .rollback, reason.isEmpty {
            // The API takes a rollback without a reason; the console asks for one, since the audit log is where the
            // team will look for why everyone lost the fix.
            return try render(request, action, fix: fix, reason: reason, issues: [FieldIssue(field: "reason", message: "Enter why you are rolling back the fix")])
        }
        let outcome = try ServiceRefusal.attempt {
            try services.fixes.perform(action.fixAction, on: fix.key.rawValue, note: action == .rollback ? reason : nil, by: principal)
        }
        guard case .failure(let refusal) = outcome else { return .seeOther(ReviewPages.path(of: fix) + "?done=" + action.doneFlag) }
        if refusal.status == 422, !refusal.issues.isEmpty {
            return try render(request, action, fix: fix, reason: reason, issues: FormFields([("reason", "The reason")]).issues(from: refusal.issues))
        }
        throw Problem(status: refusal.status, detail: Words.prose(refusal.detail))
    }

    private func render(_ request: ConsoleRequest, _ action: ReleaseAction, fix: Fix, reason: String, issues: [FieldIssue]) throws -> HTTPResponse {
        let back = BackLink(href: ReviewPages.path(of: fix), text: "Back to the fix")
        let allowed = Lifecycle.allowedActions(from: fix.state, pausedFrom: fix.pausedFrom)
        let facts = SummaryList([.init("Fix", text: fix.title), .init("Flag key", text: fix.key.rawValue), .init("Revision", text: String(fix.revision)),
                                 .init("State now", Words.stateTag(fix.state).render())]).render()
        // What turns the fix off leads with a warning; the other lines follow as they are.
        var lines = action.effect(on: fix)
        let warning: HTML = action.buttonKind == .warning ? WarningText(lines.removeFirst()).render() : .empty
        let effect = warning + HTML.join(lines.map { line -> HTML in "<p class=\"body\">\(line)</p>" })
        let heading: HTML = "<h1 class=\"heading-l\">\(action.question(fix))</h1>\(facts)"
        guard allowed.contains(action.fixAction) else {
            return request.page(action.question(fix), backLink: back, content: heading + """
            <p class="body">This cannot be done now: the fix is \(Words.state(fix.state).lowercased()). The page you came from may show an older state.</p>
            <p class="body"><a href="\(ReviewPages.path(of: fix))">See the fix as it is now</a></p>
            """)
        }
        if action.needsCriteria, case let missing = try promotion.report(for: fix).missing, !missing.isEmpty {
            return request.page(action.question(fix), backLink: back, content: heading + """
            <p class="body">The fix cannot be promoted yet. Promotion needs every criterion met, a valid approval among them. Still missing:</p>
            <ul class="list">\(missing.map { item -> HTML in "<li>\(Words.prose(item))</li>" })</ul>
            <p class="body"><a href="\(ReviewPages.path(of: fix))">Back to the fix</a></p>
            """)
        }
        let reasonField: HTML = action == .rollback
            ? TextArea(name: "reason", label: "Why are you rolling back the fix?", hint: "For example: it crashes the app with TalkBack on. At most 1000 characters.",
                       value: reason, issue: issues.first { $0.field == "reason" }).render()
            : .empty
        return request.page(action.question(fix), issues: issues, backLink: back, content: heading + """
        \(effect)
        \(request.form(ReviewPages.path(of: fix) + "/" + action.rawValue, reasonField + """
        <div class="button-group">\(Button(action.buttonText, kind: action.buttonKind).render())<a href="\(ReviewPages.path(of: fix))">Cancel<span class="visually-hidden"> and go back to the fix</span></a></div>
        """))
        """)
    }
}
