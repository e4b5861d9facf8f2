import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit

/// `/console/testing/{key}`: what a fix she tests changes and what to try, in plain words, then where to start giving
/// feedback (GOV.UK's start page). Only for fixes she is enrolled in; feedback may be closed, and the page says so.
struct FixToTryPage {
    let routes: ConsoleRoutes
    let journey: FeedbackJourney

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/testing/{key}", .tester, page)
    }

    func page(_ request: ConsoleRequest) throws -> HTTPResponse {
        let place = try journey.place(request, open: false)
        let fix = place.fix
        let platforms = fix.platforms.map(Words.platform).joined(separator: ", ")
        var rows = [SummaryList.Row("Where in the app", text: fix.uiArea), SummaryList.Row("Platforms", text: platforms)]
        if let expected = fix.expectedAnnouncement { rows.append(SummaryList.Row("A screen reader should say", text: "“\(expected)”")) }
        // What the fix should make better, in her words: WCAG numbers and the guidelines' names mean little to most testers.
        let aims = FixAims(fix: fix).aims
        if !aims.isEmpty {
            let items = aims.map { aim -> HTML in "<li>\(aim)</li>" }
            rows.append(SummaryList.Row("What the fix should make better", "<ul class=\"list list--plain\">\(items)</ul>"))
        }
        rows.append(SummaryList.Row("Version", text: String(fix.revision)))
        let description: HTML = fix.description.map { "<h2 class=\"heading-m\">What the team changed</h2><p class=\"body\">\($0)</p>" } ?? .empty
        let expected: HTML = fix.expectedAnnouncement.map { " When the fix works, a screen reader should say: “\($0)”." } ?? .empty
        return request.page(fix.title, backLink: BackLink(href: "/console/", text: "Back to your fixes"), content: """
        <h1 class="heading-l">\(fix.title)</h1>
        \(SummaryList(rows).render())
        \(description)
        <h2 class="heading-m">What to try</h2>
        <p class="body">Open the \(fix.uiArea) in the app on \(platforms), with your assistive technology on, and use it as you usually would.\(expected)</p>
        <p class="body">Then tell the team whether it worked for you: about \(FeedbackStep.sequence(for: fix, answers: FeedbackAnswers(idempotencyKey: "")).count) short pages of questions. You can change any answer before you send.</p>
        \(try feedbackPart(place))
        """)
    }

    /// Her feedback so far on this version, and the way to give it, or why she cannot now.
    private func feedbackPart(_ place: FeedbackJourney.Place) throws -> HTML {
        let fix = place.fix
        guard Feedback.acceptingStates.contains(fix.state) else {
            return """
            <h2 class="heading-m">Feedback is closed</h2>
            <p class="body">This fix does not take feedback now: its state is “\(Words.state(fix.state))”. The team will tell you if they need you to try it again.</p>
            """
        }
        var parts: [HTML] = []
        if let latest = try TesterFixes(store: journey.store).latestFeedback(on: fix, by: place.testerID) {
            parts.append("""
            <p class="body">You sent feedback on this version on \(Words.timeElement(latest.recordedAt)): “\(Words.verdict(latest.verdict))”. You can send it again; your latest counts.</p>
            """)
        }
        let started = try journey.storedAnswers(at: place).map { $0.sent == nil && !$0.values.isEmpty } ?? false
        if started {
            parts.append("<p class=\"body\">You have started answering but not sent your feedback yet. Your answers are kept.</p>")
        }
        let label = started ? "Continue giving feedback" : "Give feedback"
        parts.append("<p class=\"body\"><a href=\"\(FeedbackJourney.path(fix, .device))\" class=\"button\" draggable=\"false\">\(label)<span class=\"visually-hidden\"> on \(fix.title)</span></a></p>")
        return HTML.join(parts)
    }
}
