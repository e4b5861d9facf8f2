import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchStore

/// What the feedback pages share: the fix she is giving feedback on, her answers so far, the pages' addresses, and
/// the question page itself, which the check page also shows when the API sends her back to a question.
struct FeedbackJourney {
    let store: any Store
    let clock: @Sendable () -> Date

    /// Who is answering, on which fix, in which session (answers are kept per session and fix).
    struct Place {
        var testerID: String
        var fix: Fix
        var session: [UInt8]
    }

    /// The request's tester and fix: 404 unless she is enrolled; with `open`, 409 unless it takes feedback now.
    func place(_ request: ConsoleRequest, open: Bool = true) throws -> Place {
        let testerID = try request.testerID
        guard let session = request.session else { throw Problem(status: 401, detail: "open your personal link again to give feedback") }
        let fixes = TesterFixes(store: store)
        let key = request.parameter("key")
        let fix = open ? try fixes.fixTakingFeedback(key, of: testerID) : try fixes.fix(key, of: testerID)
        return Place(testerID: testerID, fix: fix, session: session.idSHA256)
    }

    /// Her answers as stored, sent or not; nil when she has not started.
    func storedAnswers(at place: Place) throws -> FeedbackAnswers? {
        try store.consoleDraft(session: place.session, fix: place.fix.key.rawValue).flatMap(FeedbackAnswers.init(storedText:))
    }

    /// The answers she is working on: the stored ones, or new ones when there are none or they were sent.
    func currentAnswers(at place: Place) throws -> FeedbackAnswers {
        guard let stored = try storedAnswers(at: place), stored.sent == nil else { return .start() }
        return stored
    }

    func save(_ answers: FeedbackAnswers, at place: Place) throws {
        try store.saveConsoleDraft(session: place.session, fix: place.fix.key.rawValue, answers: answers.storedText, at: clock())
    }

    static func path(_ fix: Fix, _ page: String = "") -> String {
        "/console/testing/\(fix.key.rawValue)" + (page.isEmpty ? "" : "/feedback/" + page)
    }

    static func path(_ fix: Fix, _ step: FeedbackStep, changing: Bool = false) -> String {
        path(fix, step.rawValue) + (changing ? "?from=check" : "")
    }

    /// One question page. `changing`: she came from the check page, so Back and Continue return there.
    func questionPage(_ request: ConsoleRequest, _ step: FeedbackStep, at place: Place, answers: FeedbackAnswers, issues: [FieldIssue],
                      changing: Bool) throws -> HTTPResponse {
        let fix = place.fix
        let question = FeedbackQuestion(step: step, fix: fix, answers: answers, issues: issues,
                                        profile: try store.tester(place.testerID)?.assistiveTech ?? [], messages: request.messages)
        let sequence = FeedbackStep.sequence(for: fix, answers: answers)
        let back: String = if changing {
            FeedbackJourney.path(fix, "check")
        } else if let index = sequence.firstIndex(of: step), index > 0 {
            FeedbackJourney.path(fix, sequence[index - 1])
        } else {
            FeedbackJourney.path(fix)
        }
        let content = request.form(FeedbackJourney.path(fix, step, changing: changing), question.controls + Button(request.messages[.qContinue]).render())
        return request.translatedPage(question.heading, issues: issues, backLink: BackLink(href: back), content: content)
    }
}
