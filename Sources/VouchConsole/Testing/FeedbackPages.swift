import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit

/// `/console/testing/{key}/feedback/{step}`: the question pages. Each Continue stores what she entered, right or
/// wrong, so no error and no Back loses an answer; a page with problems is shown again with her values and each
/// problem beside its field.
struct FeedbackPages {
    let routes: ConsoleRoutes
    let journey: FeedbackJourney

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/testing/{key}/feedback/{step}", .tester, question)
        routes.post(&router, "/console/testing/{key}/feedback/{step}", .tester, answer)
    }

    func question(_ request: ConsoleRequest) throws -> HTTPResponse {
        let place = try journey.place(request)
        let step = try self.step(request)
        let answers = try journey.currentAnswers(at: place)
        guard step.applies(to: place.fix, answers: answers) else { return .seeOther(nextPage(after: step, at: place, answers: answers)) }
        return try journey.questionPage(request, step, at: place, answers: answers, issues: [], changing: isChanging(request))
    }

    func answer(_ request: ConsoleRequest) throws -> HTTPResponse {
        let place = try journey.place(request)
        let step = try self.step(request)
        var answers = try journey.currentAnswers(at: place)
        for field in step.fields(for: place.fix) {
            answers[field] = request.field(field)
        }
        try journey.save(answers, at: place)
        let changing = isChanging(request)
        let issues = FeedbackValidation.issues(on: step, fix: place.fix, answers: answers, testerID: place.testerID, messages: request.messages)
        guard issues.isEmpty else {
            return try journey.questionPage(request, step, at: place, answers: answers, issues: issues, changing: changing)
        }
        if changing, let incomplete = FeedbackValidation.firstIncomplete(fix: place.fix, answers: answers, testerID: place.testerID,
                                                                                  messages: request.messages) {
            // A changed answer may open a question (the web needs a browser): ask it before returning to the check.
            // Or it may clash with an earlier one (a failed verdict and no problem left): show that page and why.
            let answered = incomplete.step.fields.contains { answers[$0] != nil }
            return answered ? try journey.questionPage(request, incomplete.step, at: place, answers: answers, issues: incomplete.issues, changing: true)
                : .seeOther(FeedbackJourney.path(place.fix, incomplete.step, changing: true))
        }
        if changing { return .seeOther(FeedbackJourney.path(place.fix, "check")) }
        return .seeOther(nextPage(after: step, at: place, answers: answers))
    }

    private func step(_ request: ConsoleRequest) throws -> FeedbackStep {
        let name = request.parameter("step")
        guard let step = FeedbackStep(rawValue: name) else { throw Problem(status: 404, detail: "there is no feedback question '\(name)'") }
        return step
    }

    private func isChanging(_ request: ConsoleRequest) -> Bool { request.http.query["from"] == "check" }

    /// The next question that applies after `step`, or the check page after the last.
    private func nextPage(after step: FeedbackStep, at place: Place, answers: FeedbackAnswers) -> String {
        let later = FeedbackStep.allCases.drop { $0 != step }.dropFirst()
        return later.first { $0.applies(to: place.fix, answers: answers) }.map { FeedbackJourney.path(place.fix, $0) }
            ?? FeedbackJourney.path(place.fix, "check")
    }

    typealias Place = FeedbackJourney.Place
}
