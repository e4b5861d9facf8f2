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
            return try render(request, action, fix: fix, reason: reason, issues: [FieldIssue(field: "reason", message: request.messages[.releaseEnterReason])])
        }
        let outcome = try ServiceRefusal.attempt {
            try services.fixes.perform(action.fixAction, on: fix.key.rawValue, note: action == .rollback ? reason : nil, by: principal)
        }
        guard case .failure(let refusal) = outcome else { return .seeOther(ReviewPages.path(of: fix) + "?done=" + action.doneFlag) }
        if refusal.status == 422, !refusal.issues.isEmpty {
            return try render(request, action, fix: fix, reason: reason, issues: FormFields([("reason", request.messages[.releaseTheReason])]).issues(from: refusal.issues, messages: request.messages))
        }
        throw Problem(status: refusal.status, detail: Words.prose(refusal.detail))
    }

    private func render(_ request: ConsoleRequest, _ action: ReleaseAction, fix: Fix, reason: String, issues: [FieldIssue]) throws -> HTTPResponse {
        let messages = request.messages
        let back = BackLink(href: ReviewPages.path(of: fix), text: messages[.decisionBackToFix])
        let allowed = Lifecycle.allowedActions(from: fix.state, pausedFrom: fix.pausedFrom)
        let facts = SummaryList([.init(messages[.releaseFix], messages.title(of: fix)), .init(messages[.releaseFlagKey], text: fix.key.rawValue),
                                 .init(messages[.releaseRevision], text: messages.number(fix.revision)),
                                 .init(messages[.releaseStateNow], Words.stateTag(fix.state, messages).render())]).render(messages)
        // What turns the fix off leads with a warning; the other lines follow as they are.
        var lines = action.effect(on: fix, messages)
        let warning: HTML = action.buttonKind == .warning ? WarningText(lines.removeFirst()).render(messages) : .empty
        let effect = warning + HTML.join(lines.map { line -> HTML in "<p class=\"body\">\(line)</p>" })
        let title = messages(action.question, ["title": fix.title])
        let heading: HTML = "<h1 class=\"heading-l\">\(messages.html(action.question, ["title": messages.title(of: fix)]))</h1>\(facts)"
        guard allowed.contains(action.fixAction) else {
            return request.translatedPage(title, backLink: back, content: heading + """
            <p class="body">\(messages(.releaseCannotNow, ["state": messages.state(fix.state).lowercased()]))</p>
            <p class="body"><a href="\(ReviewPages.path(of: fix))">\(messages[.releaseSeeFixNow])</a></p>
            """)
        }
        if action.needsCriteria, case let missing = try promotion.report(for: fix).missing, !missing.isEmpty {
            return request.translatedPage(title, backLink: back, content: heading + """
            <p class="body">\(messages[.releaseNotYet])</p>
            <ul class="list">\(missing.map { item -> HTML in "<li>\(messages.prose(item))</li>" })</ul>
            <p class="body"><a href="\(ReviewPages.path(of: fix))">\(messages[.decisionBackToFix])</a></p>
            """)
        }
        let reasonField: HTML = action == .rollback
            ? TextArea(name: "reason", label: messages[.releaseReasonLabel],
                       hint: messages(.releaseReasonHint, ["count": String(FixService.maxNoteLength)]),
                       value: reason, issue: issues.first { $0.field == "reason" }).render(messages)
            : .empty
        return request.translatedPage(title, issues: issues, backLink: back, content: heading + """
        \(effect)
        \(request.form(ReviewPages.path(of: fix) + "/" + action.rawValue, reasonField + """
        <div class="button-group">\(Button(messages[action.buttonText], kind: action.buttonKind).render())<a href="\(ReviewPages.path(of: fix))">\(messages[.releaseCancel])<span class="visually-hidden"> \(messages[.releaseCancelHidden])</span></a></div>
        """))
        """)
    }
}
