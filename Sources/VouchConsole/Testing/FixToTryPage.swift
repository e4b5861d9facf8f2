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
        let messages = request.messages
        let platforms = messages.list(fix.platforms.map(Words.platform))
        var rows = [SummaryList.Row(messages[.fixWhereInApp], messages.area(of: fix)), SummaryList.Row(messages[.fixPlatforms], text: platforms)]
        if let expected = messages.expectedAnnouncement(of: fix) { rows.append(SummaryList.Row(messages[.fixScreenReaderShouldSay], "“\(expected)”")) }
        // What the fix should make better, in her words: WCAG numbers and the guidelines' names mean little to most testers.
        let aims = FixAims(fix: fix).aims(messages)
        if !aims.isEmpty {
            let items = aims.map { aim -> HTML in "<li>\(aim)</li>" }
            rows.append(SummaryList.Row(messages[.fixAims], "<ul class=\"list list--plain\">\(items)</ul>"))
        }
        rows.append(SummaryList.Row(messages[.fixVersion], text: messages.number(fix.revision)))
        let description: HTML = fix.description.map { "<h2 class=\"heading-m\">\(messages[.fixTeamChanged])</h2><p class=\"body\">\($0)</p>" } ?? .empty
        let tryIt = messages.expectedAnnouncement(of: fix).map {
            messages.html(.fixTryItExpected, ["area": messages.area(of: fix), "platforms": "\(platforms)", "expected": $0])
        } ?? messages.html(.fixTryIt, ["area": messages.area(of: fix), "platforms": "\(platforms)"])
        let pages = FeedbackStep.sequence(for: fix, answers: FeedbackAnswers(idempotencyKey: "")).count
        return request.translatedPage(fix.title, backLink: BackLink(href: "/console/", text: messages[.fixBack]), content: """
        <h1 class="heading-l">\(messages.title(of: fix))</h1>
        \(SummaryList(rows).render(messages))
        \(description)
        <h2 class="heading-m">\(messages[.fixWhatToTry])</h2>
        <p class="body">\(tryIt)</p>
        <p class="body">\(messages(.fixThenTell, ["count": messages.number(pages)]))</p>
        \(try feedbackPart(place, messages))
        """)
    }

    /// Her feedback so far on this version, and the way to give it, or why she cannot now.
    private func feedbackPart(_ place: FeedbackJourney.Place, _ messages: Messages) throws -> HTML {
        let fix = place.fix
        guard Feedback.acceptingStates.contains(fix.state) else {
            return """
            <h2 class="heading-m">\(messages[.fixClosedTitle])</h2>
            <p class="body">\(messages(.fixClosedText, ["state": messages.state(fix.state)]))</p>
            """
        }
        var parts: [HTML] = []
        if let latest = try TesterFixes(store: journey.store).latestFeedback(on: fix, by: place.testerID) {
            let sent = messages.html(.fixSentBefore, ["date": messages.timeElement(latest.recordedAt), "verdict": "\(messages.verdict(latest.verdict))"])
            parts.append("<p class=\"body\">\(sent)</p>")
        }
        let started = try journey.storedAnswers(at: place).map { $0.sent == nil && !$0.values.isEmpty } ?? false
        if started { parts.append("<p class=\"body\">\(messages[.fixStarted])</p>") }
        let label = messages[started ? .fixContinueFeedback : .fixGiveFeedback]
        parts.append("""
        <p class="body"><a href="\(FeedbackJourney.path(fix, .device))" class="button" draggable="false">\(label)<span class="visually-hidden"> \(messages.html(.fixFeedbackOn, ["title": messages.title(of: fix)]))</span></a></p>
        """)
        return HTML.join(parts)
    }
}
