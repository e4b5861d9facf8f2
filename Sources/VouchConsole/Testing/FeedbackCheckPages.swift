import VouchCodec
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// "Check your answers before sending", the send itself through the feedback service, and the confirmation (GOV.UK's check
/// answers and confirmation pages).
struct FeedbackCheckPages {
    let routes: ConsoleRoutes
    let journey: FeedbackJourney
    let services: Services

    /// The check page's hidden field that carries the answers' idempotency key.
    static let keyField = "idempotency_key"

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/testing/{key}/feedback/check", .tester, check)
        routes.post(&router, "/console/testing/{key}/feedback/check", .tester, send)
        routes.get(&router, "/console/testing/{key}/feedback/sent", .tester, sent)
    }

    func check(_ request: ConsoleRequest) throws -> HTTPResponse {
        let place = try journey.place(request)
        let fix = place.fix
        guard let answers = try journey.storedAnswers(at: place), answers.sent == nil else { return .seeOther(FeedbackJourney.path(fix)) }
        if let incomplete = FeedbackValidation.firstIncomplete(fix: fix, answers: answers, testerID: place.testerID) {
            return .seeOther(FeedbackJourney.path(fix, incomplete.step))
        }
        let sequence = FeedbackStep.sequence(for: fix, answers: answers)
        let rows = sequence.flatMap { step in
            step.fields(for: fix).map { field in
                SummaryList.Row(FeedbackWording.subject(field), text: answers[field].map { FeedbackWording.value(field, $0, platform: answers.platform(for: fix)) } ?? "Not given",
                                changeHref: FeedbackJourney.path(fix, step, changing: true), changeSubject: FeedbackWording.subject(field).lowercased())
            }
        }
        let form = request.form(FeedbackJourney.path(fix, "check"), Form.hidden(FeedbackCheckPages.keyField, answers.idempotencyKey) + Button("Send feedback").render())
        return request.page("Check your answers before sending", backLink: BackLink(href: FeedbackJourney.path(fix, sequence.last ?? .comment)), content: """
        <h1 class="heading-l">Check your answers before sending</h1>
        <p class="body">Your feedback on “\(fix.title)”, version \(fix.revision).</p>
        \(SummaryList(rows).render())
        <h2 class="heading-m">Now send your feedback</h2>
        <p class="body">The team sees it with your tester number (\(Words.shortID(place.testerID))), not your name. If you send feedback on this version again, your latest counts.</p>
        \(form)
        """)
    }

    /// Sends the answers with their idempotency key. A second send of the same form (a double click, the form sent
    /// again later) finds the answers sent and shows the confirmation; two at the same instant both reach the service,
    /// which records the first and replays it for the second.
    func send(_ request: ConsoleRequest) throws -> HTTPResponse {
        let place = try journey.place(request)
        let fix = place.fix
        let posted = request.field(FeedbackCheckPages.keyField)
        guard let answers = try journey.storedAnswers(at: place) else { return .seeOther(FeedbackJourney.path(fix)) }
        if let sent = answers.sent {
            return .seeOther(sent.idempotencyKey == posted ? FeedbackJourney.path(fix, "sent") : FeedbackJourney.path(fix))
        }
        // An older check page (she changed answers in another tab since): show her what would be sent now.
        guard answers.idempotencyKey == posted else { return .seeOther(FeedbackJourney.path(fix, "check")) }
        if let incomplete = FeedbackValidation.firstIncomplete(fix: fix, answers: answers, testerID: place.testerID) {
            return try journey.questionPage(request, incomplete.step, at: place, answers: answers, issues: incomplete.issues, changing: true)
        }
        // Read as the API reads its body, and claimed with the same bytes, so a resend with the same key is a replay.
        let body = answers.body(for: fix)
        let (draft, readErrors) = FeedbackDraft.read(body)
        let outcome = try ServiceRefusal.attempt {
            try services.feedback.submit([draft], readErrors: [readErrors], to: fix.key.rawValue, by: try request.signedIn, channel: .web,
                                         idempotency: FeedbackService.Idempotency(key: answers.idempotencyKey, request: JSONWriter.bytes(body)))
        }
        let refusal: ServiceRefusal
        switch outcome {
        case .success(let submission):
            guard let feedbackID = submission.records.first?.id else {
                throw Problem(status: 502, detail: "the feedback could not be recorded")
            }
            try journey.save(FeedbackAnswers(idempotencyKey: answers.idempotencyKey, sent: .init(idempotencyKey: answers.idempotencyKey, feedbackID: feedbackID)),
                             at: place)
            return .seeOther(FeedbackJourney.path(fix, "sent"))
        case .failure(let failure): refusal = failure
        }
        // The service's own checks: back to the first question in error, with its words; her answers stay as they are.
        let issues = refusal.issues.map(FeedbackValidation.issue(from:))
        if refusal.status == 422, let step = issues.lazy.compactMap({ FeedbackStep.asking($0.field) }).first {
            return try journey.questionPage(request, step, at: place, answers: answers, issues: issues.filter { step.fields.contains($0.field) },
                                            changing: true)
        }
        throw Problem(status: refusal.status, detail: refusal.detail.isEmpty ? "the feedback could not be recorded" : refusal.detail,
                      errors: issues.map { Problem.FieldIssue(field: $0.field, message: $0.message) })
    }

    func sent(_ request: ConsoleRequest) throws -> HTTPResponse {
        let place = try journey.place(request, open: false)
        let fix = place.fix
        let reference = try journey.storedAnswers(at: place)?.sent?.feedbackID
            ?? TesterFixes(store: journey.store).latestFeedback(on: fix, by: place.testerID)?.id
        guard let reference else { return .seeOther(FeedbackJourney.path(fix)) }
        return request.page("Feedback sent", content: """
        <div class="panel">
        <h1 class="heading-l panel__title">Feedback sent</h1>
        <p class="body">Your reference<br><strong>\(Words.shortID(reference))</strong></p>
        </div>
        <p class="body">Thank you. Your feedback on “\(fix.title)”, version \(fix.revision), is with the team.</p>
        <h2 class="heading-m">What happens next</h2>
        <p class="body">The team reads your feedback together with other testers'. When the fix works for enough testers and a release manager approves it, it is switched on for everyone who uses the app.</p>
        <p class="body">If the team changes the fix, it gets a new version and you may be asked to try it again. If you try it again yourself and something is different, <a href="\(FeedbackJourney.path(fix))">give feedback on \(fix.title) again</a>: your latest feedback is the one that counts.</p>
        <p class="body"><a href="/console/my-feedback">See all your feedback</a></p>
        <p class="body"><a href="/console/">Go back to your fixes</a></p>
        """)
    }
}
