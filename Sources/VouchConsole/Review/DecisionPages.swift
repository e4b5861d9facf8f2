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
        let messages = request.messages
        let actions = FixActions(fix: fix, principal: try request.signedIn, report: report, messages: messages)
        guard actions.mayDecide else {
            let reason = actions.decisionRefusal
                ?? messages(.decisionNotDecidable, ["state": messages.state(fix.state).lowercased()])
            return request.translatedPage(messages(.decisionCannotTitle, ["title": fix.title]),
                                          backLink: BackLink(href: ReviewPages.path(of: fix), text: messages[.decisionBackToFix]), content: """
            <h1 class="heading-l">\(messages.html(.decisionCannotTitle, ["title": messages.title(of: fix)]))</h1>
            <p class="body">\(reason)</p>
            <p class="body"><a href="\(ReviewPages.path(of: fix))">\(messages[.decisionBackToFix])</a></p>
            """)
        }
        return try formPage(request, fix: fix, report: report, answers: Answers(decision: nil, comment: "", evidence: report.evidenceHash), issues: [])
    }

    func submit(_ request: ConsoleRequest) throws -> HTTPResponse {
        let fix = try ReviewPages.fix(request, in: store)
        let report = try promotion.report(for: fix)
        let answers = Answers(decision: Approval.Decision(rawValue: request.field("decision")), comment: request.field("comment"),
                              evidence: request.field("evidence"))
        let messages = request.messages
        var issues: [FieldIssue] = []
        if answers.decision == nil { issues.append(FieldIssue(field: "decision", message: messages[.decisionChooseDecision])) }
        if answers.decision == .reject && answers.comment.isEmpty {
            issues.append(FieldIssue(field: "comment", message: messages[.decisionEnterComment]))
        }
        if answers.evidence != report.evidenceHash {
            issues.insert(FieldIssue(field: "decision", message: messages[.decisionEvidenceChanged]), at: 0)
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
            : FormFields([("decision", request.messages[.decisionYourDecision]), ("comment", request.messages[.decisionTheComment])]).issues(from: refusal.issues, messages: request.messages)
        return try formPage(request, fix: fix, report: report, answers: answers, issues: issues)
    }

    private func formPage(_ request: ConsoleRequest, fix: Fix, report: CriteriaReport, answers: Answers, issues: [FieldIssue]) throws -> HTTPResponse {
        let messages = request.messages
        let radios = RadioGroup(name: "decision", legend: messages(.decisionLegend, ["revision": messages.number(fix.revision)]), options: [
            .init(Approval.Decision.approve.rawValue, messages[.decisionApprove], hint: messages[.decisionApproveHint]),
            .init(Approval.Decision.reject.rawValue, messages[.decisionReject], hint: messages[.decisionRejectHint]),
        ], selected: answers.decision?.rawValue, issue: issues.first { $0.field == "decision" })
        let comment = TextArea(name: "comment", label: messages[.decisionComment],
                               hint: messages(.decisionCommentHint, ["count": String(ApprovalService.maxCommentLength)]),
                               value: answers.comment, issue: issues.first { $0.field == "comment" })
        let allEvidence: HTML = "<a href=\"\(ReviewPages.path(of: fix))\">\(messages[.decisionAllEvidence])</a>"
        return request.translatedPage(messages(.decisionTitle, ["title": fix.title]), issues: issues,
                                      backLink: BackLink(href: ReviewPages.path(of: fix), text: messages[.decisionBackToFix]), content: """
        <h1 class="heading-l">\(messages.html(.decisionTitle, ["title": messages.title(of: fix)]))</h1>
        <p class="body">\(messages.html(.decisionIntro, ["revision": "\(messages.number(fix.revision))", "link": allEvidence]))</p>
        <h2 class="heading-m">\(messages[.decisionEvidenceTitle])</h2>
        \(try evidence(fix: fix, report: report, messages))
        \(request.form(ReviewPages.path(of: fix) + "/decision", radios.render(messages) + comment.render(messages)
            + Form.hidden("evidence", report.evidenceHash) + Button(messages[.decisionContinue], name: "step", value: "check").render()))
        """)
    }

    private func evidence(fix: Fix, report: CriteriaReport, _ messages: Messages) throws -> HTML {
        let latest = try store.latestFeedback(of: fix.key.rawValue, revision: fix.revision)
        let verdicts = Verdict.allCases.map { verdict in
            messages(.decisionVerdictCount, ["count": messages.number(latest.filter { $0.verdict == verdict }.count),
                                             "verdict": ReviewWords.verdict(verdict, messages).lowercased()])
        }
        let unmet = report.criteria.filter { !$0.met }.map { ReviewWords.criterion($0.name, messages).lowercased() }
        let feedback = messages(latest.count == 1 || messages.language == .ja ? .decisionLatestOne : .decisionLatestOther,
                                ["count": messages.number(latest.count), "verdicts": messages.list(verdicts),
                                 "blocking": messages.number(latest.filter(\.isBlocking).count)])
        let met = ["met": messages.number(report.criteria.count - unmet.count), "total": messages.number(report.criteria.count),
                   "unmet": messages.list(unmet)]
        return SummaryList([
            .init(messages[.decisionRevision], text: messages.number(fix.revision)),
            .init(messages[.decisionLatest], text: feedback),
            .init(messages[.decisionCriteriaMet], text: messages(unmet.isEmpty ? .decisionMetOf : .decisionMetOfNotMet, met)),
        ]).render(messages) + """
        <p class="body">\(messages[.decisionCovers])</p>
        """
    }

    private func confirmationPage(_ request: ConsoleRequest, fix: Fix, answers: Answers) throws -> HTTPResponse {
        guard let decision = answers.decision else { throw Problem(status: 400, detail: "the form carried no decision") }
        let messages = request.messages
        let approving = decision == .approve
        let question: MessageKey = approving ? .decisionApproveQuestion : .decisionRejectQuestion
        let revision = messages.number(fix.revision)
        let facts = SummaryList([.init(messages[.decisionFix], messages.title(of: fix)), .init(messages[.decisionRevision], text: revision),
                                 .init(messages[.decisionYourDecision], text: messages[approving ? .decisionApprove : .decisionReject]),
                                 .init(messages[.decisionComment], text: answers.comment.isEmpty ? messages[.decisionNone] : answers.comment)]).render(messages)
        let effect = approving ? try approvalEffect(fix: fix, principal: try request.signedIn, messages)
            : WarningText(messages(.decisionRejectionBlocks, ["revision": revision])).render(messages)
        let fields = Form.hidden("decision", decision.rawValue) + Form.hidden("comment", answers.comment) + Form.hidden("evidence", answers.evidence)
        let confirm = Button(messages[approving ? .decisionConfirmApproval : .decisionConfirmRejection], kind: approving ? .primary : .warning,
                             name: "step", value: "confirm")
        let buttons: HTML = """
        <div class="button-group">\(confirm.render())\(Button(messages[.decisionChange], kind: .secondary, name: "step", value: "change").render())</div>
        """
        return request.translatedPage(messages(question, ["title": fix.title, "revision": revision]),
                                      backLink: BackLink(href: ReviewPages.path(of: fix) + "/decision", text: messages[.decisionBackToDecision]), content: """
        <h1 class="heading-l">\(messages.html(question, ["title": messages.title(of: fix), "revision": "\(revision)"]))</h1>
        \(facts)
        \(effect)
        \(request.form(ReviewPages.path(of: fix) + "/decision", fields + buttons))
        """)
    }

    /// What approving does now: the criteria are evaluated as if the approval were recorded, so the page says whether
    /// confirming starts the promotion to everyone, or what would still be missing.
    private func approvalEffect(fix: Fix, principal: Principal, _ messages: Messages) throws -> HTML {
        var input = try promotion.input(for: fix)
        input.approvals.append(Approval(id: "preview", fixKey: fix.key.rawValue, revision: fix.revision, principal: principal.name, decision: .approve,
                                        comment: nil, evidenceHash: CriteriaEvaluator.evaluate(input).evidenceHash, recordedAt: input.now))
        let after = CriteriaEvaluator.evaluate(input)
        let inSteps = fix.rollout != nil
        let consequence: HTML = after.readyToPromote
            ? WarningText(messages[inSteps ? .decisionStartsNowInSteps : .decisionStartsNow]).render(messages)
            : """
            <p class="body">\(messages[inSteps ? .decisionStillMissingInSteps : .decisionStillMissing])</p>
            <ul class="list">\(after.missing.map { item -> HTML in "<li>\(messages.prose(item))</li>" })</ul>
            """
        let expiry = messages.duration(input.settings.approvalExpirySeconds)
        return consequence + """
        <p class="body">\(messages(.decisionStopsCounting, ["duration": expiry]))</p>
        """
    }
}
