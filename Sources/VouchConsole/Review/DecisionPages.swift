import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServices
import VouchStore

/// `/console/fixes/{key}/decision`: a release manager approves or rejects the fix's current revision. The form shows
/// the evidence the decision binds to; a confirmation page says what the decision will do; the approval service records
/// it, with its four-eyes and one-vote rules, and its refusals are shown on the form in its own words.
struct DecisionPages {
    static let approvedFlag = "approved"
    static let rejectedFlag = "rejected"

    let store: any Store
    let promotion: PromotionService
    let services: Services

    /// What the person chose and wrote, carried from the form to the confirmation page and back.
    struct Answers {
        var decision: Approval.Decision?
        var comment: String
        /// The evidence fingerprint the person saw; a decision on other evidence is asked again. The form always
        /// carries the fingerprint of the evidence it shows.
        var evidence: String
    }

    func form(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try ReviewPages.fix(request, in: store)
        let report = try promotion.report(for: fix)
        let actions = FixActions(fix: fix, principal: try request.signedIn, report: report)
        guard actions.mayDecide else {
            let reason = actions.decisionRefusal
                ?? "Approvals are recorded while a fix is in testing or its promotion failed; this fix is \(Words.state(fix.state).lowercased())."
            return request.page("You cannot decide on \(fix.title) now", backLink: BackLink(href: ReviewPages.path(of: fix), text: "Back to the fix"), content: """
            <h1 class="heading-l">You cannot decide on \(fix.title) now</h1>
            <p class="body">\(reason)</p>
            <p class="body"><a href="\(ReviewPages.path(of: fix))">Back to the fix</a></p>
            """)
        }
        return try formPage(request, fix: fix, report: report, answers: Answers(decision: nil, comment: "", evidence: report.evidenceHash), issues: [])
    }

    func submit(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try ReviewPages.fix(request, in: store)
        let report = try promotion.report(for: fix)
        let answers = Answers(decision: Approval.Decision(rawValue: request.field("decision")), comment: request.field("comment"),
                              evidence: request.field("evidence"))
        var issues: [FieldIssue] = []
        if answers.decision == nil { issues.append(FieldIssue(field: "decision", message: "Choose whether you approve or reject the fix")) }
        if answers.decision == .reject && answers.comment.isEmpty {
            issues.append(FieldIssue(field: "comment", message: "Enter a comment: say what must change before you would approve the fix"))
        }
        if answers.evidence != report.evidenceHash {
            issues.insert(FieldIssue(field: "decision", message: "The evidence changed while you were deciding: look at it again below, then decide"), at: 0)
        }
        switch request.field("step") {
        case "change":
            return try formPage(request, fix: fix, report: report, answers: answers, issues: [])
        case _ where !issues.isEmpty:
            return try formPage(request, fix: fix, report: report, answers: answers, issues: issues)
        case "confirm":
            return try record(request, fix: fix, report: report, answers: answers)
        default:
            return try confirmationPage(request, fix: fix, answers: answers)
        }
    }

    /// Asks the service to record the decision; its refusal (four-eyes, one vote, the fix's state) goes back to the form.
    private func record(_ request: ConsoleRequest, fix: Fix, report: CriteriaReport, answers: Answers) throws -> HTTPResponse {
        guard let decision = answers.decision else { throw Problem(status: 400, detail: "the form carried no decision") }
        let outcome = try ServiceRefusal.attempt {
            try services.approvals.decide(decision, comment: answers.comment.isEmpty ? nil : answers.comment, on: fix.key.rawValue, by: try request.signedIn)
        }
        guard case .failure(let refusal) = outcome else {
            return .seeOther(ReviewPages.path(of: fix) + "?done=" + (decision == .approve ? DecisionPages.approvedFlag : DecisionPages.rejectedFlag))
        }
        guard [403, 409, 422].contains(refusal.status) else { throw Problem(status: refusal.status, detail: Words.prose(refusal.detail)) }
        let issues = refusal.issues.isEmpty ? [FieldIssue(field: "decision", message: ReviewWords.sentence(Words.prose(refusal.detail), period: false))]
            : FormFields([("decision", "Your decision"), ("comment", "The comment")]).issues(from: refusal.issues)
        return try formPage(request, fix: fix, report: report, answers: answers, issues: issues)
    }

    private func formPage(_ request: ConsoleRequest, fix: Fix, report: CriteriaReport, answers: Answers, issues: [FieldIssue]) throws -> HTTPResponse {
        let title = "Approve or reject \(fix.title)"
        let radios = RadioGroup(name: "decision", legend: "Your decision on revision \(fix.revision)", options: [
            .init(Approval.Decision.approve.rawValue, "Approve", hint: "The fix may go to everyone once every criterion is met."),
            .init(Approval.Decision.reject.rawValue, "Reject", hint: "The fix cannot be promoted until it has a new revision."),
        ], selected: answers.decision?.rawValue, issue: issues.first { $0.field == "decision" })
        let comment = TextArea(name: "comment", label: "Comment", hint: "Needed if you reject: say what must change. Optional if you approve. At most 2000 characters.",
                               value: answers.comment, issue: issues.first { $0.field == "comment" })
        return request.page(title, issues: issues, backLink: BackLink(href: ReviewPages.path(of: fix), text: "Back to the fix"), content: """
        <h1 class="heading-l">\(title)</h1>
        <p class="body">Your decision is recorded with your name, for revision \(fix.revision) and the evidence below. <a href="\(ReviewPages.path(of: fix))">See all the evidence on the fix page</a>.</p>
        <h2 class="heading-m">The evidence you decide on</h2>
        \(try evidence(fix: fix, report: report))
        \(request.form(ReviewPages.path(of: fix) + "/decision", radios.render() + comment.render()
            + Form.hidden("evidence", report.evidenceHash) + Button("Continue", name: "step", value: "check").render()))
        """)
    }

    private func evidence(fix: Fix, report: CriteriaReport) throws -> HTML {
        let latest = try store.latestFeedback(of: fix.key.rawValue, revision: fix.revision)
        let verdicts = Verdict.allCases.map { verdict in "\(latest.filter { $0.verdict == verdict }.count) \(ReviewWords.verdict(verdict).lowercased())" }
        let unmet = report.criteria.filter { !$0.met }.map { ReviewWords.criterion($0.name).lowercased() }
        return SummaryList([
            .init("Revision", text: String(fix.revision)),
            .init("Latest feedback", text: "\(latest.count) \(latest.count == 1 ? "tester" : "testers"): " + verdicts.joined(separator: ", ")
                + "; \(latest.filter(\.isBlocking).count) blocking"),
            .init("Criteria met", text: "\(report.criteria.count - unmet.count) of \(report.criteria.count)"
                + (unmet.isEmpty ? "" : ". Not met: " + unmet.joined(separator: ", "))),
        ]).render() + """
        <p class="body">Your decision covers this evidence as it stands now. An approval stops counting when a tester reports after it that \
        the fix fails; if the evidence changes while you decide, you are asked to look at it again before anything is recorded.</p>
        """
    }

    private func confirmationPage(_ request: ConsoleRequest, fix: Fix, answers: Answers) throws -> HTTPResponse {
        guard let decision = answers.decision else { throw Problem(status: 400, detail: "the form carried no decision") }
        let approving = decision == .approve
        let title = "\(approving ? "Approve" : "Reject") \(fix.title), revision \(fix.revision)?"
        let facts = SummaryList([.init("Fix", text: fix.title), .init("Revision", text: String(fix.revision)),
                                 .init("Your decision", text: approving ? "Approve" : "Reject"),
                                 .init("Comment", text: answers.comment.isEmpty ? "None" : answers.comment)]).render()
        let effect = approving ? try approvalEffect(fix: fix, principal: try request.signedIn)
            : WarningText("Your rejection blocks the promotion of revision \(fix.revision). It stands until the fix has a new revision: you cannot withdraw it.").render()
        let fields = Form.hidden("decision", decision.rawValue) + Form.hidden("comment", answers.comment) + Form.hidden("evidence", answers.evidence)
        let buttons: HTML = """
        <div class="button-group">\(Button(approving ? "Confirm approval" : "Confirm rejection", kind: approving ? .primary : .warning, name: "step", value: "confirm").render())\(Button("Change your decision", kind: .secondary, name: "step", value: "change").render())</div>
        """
        return request.page(title, backLink: BackLink(href: ReviewPages.path(of: fix) + "/decision", text: "Back to your decision"), content: """
        <h1 class="heading-l">\(title)</h1>
        \(facts)
        \(effect)
        \(request.form(ReviewPages.path(of: fix) + "/decision", fields + buttons))
        """)
    }

    /// What approving does now: the criteria are evaluated as if the approval were recorded, so the page says whether
    /// confirming starts the promotion to everyone, or what would still be missing.
    private func approvalEffect(fix: Fix, principal: Principal) throws -> HTML {
        var input = try promotion.input(for: fix)
        input.approvals.append(Approval(id: "preview", fixKey: fix.key.rawValue, revision: fix.revision, principal: principal.name, decision: .approve,
                                        comment: nil, evidenceHash: CriteriaEvaluator.evaluate(input).evidenceHash, recordedAt: input.now))
        let after = CriteriaEvaluator.evaluate(input)
        let reach = fix.rollout == nil ? "to everyone" : "to everyone in steps"
        let consequence: HTML = after.readyToPromote
            ? WarningText("Every other criterion is met: when you confirm, Vouch starts promoting the fix \(reach) at once.").render()
            : """
            <p class="body">When every criterion is met, Vouch promotes the fix \(reach) on its own. Still missing after your approval:</p>
            <ul class="list">\(after.missing.map { item -> HTML in "<li>\(Words.prose(item))</li>" })</ul>
            """
        let expiry = CriteriaEvaluator.duration(input.settings.approvalExpirySeconds)
        return consequence + """
        <p class="body">Your approval stops counting if a tester reports that the fix fails, when the fix gets a new revision, or after \(expiry).</p>
        """
    }
}
