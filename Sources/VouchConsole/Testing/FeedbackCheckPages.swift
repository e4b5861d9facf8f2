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
        let messages = request.messages
        if let incomplete = FeedbackValidation.firstIncomplete(fix: fix, answers: answers, testerID: place.testerID, messages: messages) {
            return .seeOther(FeedbackJourney.path(fix, incomplete.step))
        }
        let sequence = FeedbackStep.sequence(for: fix, answers: answers)
        let rows = sequence.flatMap { step in
            step.fields(for: fix).map { field in
                let value = answers[field].map { FeedbackWording.value(field, $0, platform: answers.platform(for: fix), messages) }
                return SummaryList.Row(FeedbackWording.subject(field, messages), text: value ?? messages[.checkNotGiven],
                                       changeHref: FeedbackJourney.path(fix, step, changing: true),
                                       changeSubject: FeedbackWording.subject(field, messages).lowercased())
            }
        }
        let form = request.form(FeedbackJourney.path(fix, "check"),
                                Form.hidden(FeedbackCheckPages.keyField, answers.idempotencyKey) + Button(messages[.checkSend]).render())
        let about = messages.html(.checkAbout, ["title": messages.title(of: fix), "revision": "\(messages.number(fix.revision))"])
        return request.translatedPage(messages[.checkTitle], backLink: BackLink(href: FeedbackJourney.path(fix, sequence.last ?? .comment)), content: """
        <h1 class="heading-l">\(messages[.checkTitle])</h1>
        <p class="body">\(about)</p>
        \(SummaryList(rows).render(messages))
        <h2 class="heading-m">\(messages[.checkSendTitle])</h2>
        <p class="body">\(messages(.checkSendText, ["number": messages.shortID(place.testerID)]))</p>
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
        if let incomplete = FeedbackValidation.firstIncomplete(fix: fix, answers: answers, testerID: place.testerID, messages: request.messages) {
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
        let issues = refusal.issues.map { FeedbackValidation.issue(from: $0, answers: answers, messages: request.messages) }
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
        let messages = request.messages
        let again: HTML = "<a href=\"\(FeedbackJourney.path(fix))\">\(messages.html(.sentAgainLink, ["title": messages.title(of: fix)]))</a>"
        return request.translatedPage(messages[.sentTitle], content: """
        <div class="panel">
        <h1 class="heading-l panel__title">\(messages[.sentTitle])</h1>
        <p class="body">\(messages[.sentReference])<br><strong>\(messages.shortID(reference))</strong></p>
        </div>
        <p class="body">\(messages.html(.sentThanks, ["title": messages.title(of: fix), "revision": "\(messages.number(fix.revision))"]))</p>
        <h2 class="heading-m">\(messages[.sentNextTitle])</h2>
        <p class="body">\(messages[.sentNext])</p>
        <p class="body">\(messages.html(.sentAgain, ["link": again]))</p>
        <p class="body"><a href="/console/my-feedback">\(messages[.sentAllFeedback])</a></p>
        <p class="body"><a href="/console/">\(messages[.sentHome])</a></p>
        """)
    }
}
