import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServices
import VouchStore

/// `/console/fixes/{key}`: one fix for every staff role: its details, the criteria report in words and numbers as
/// `vouch status` gives it, the latest feedback per tester, the approvals and their standing, and what the reader may
/// do next.
struct FixPage {
    let store: any Store
    let promotion: PromotionService
    let evidence: EvidenceService

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let principal = try request.signedIn
        let fix = try ReviewPages.fix(request, in: store)
        let report = try promotion.report(for: fix)
        let latest = try store.latestFeedback(of: fix.key.rawValue, revision: fix.revision)
        let messages = request.messages
        let actions = FixActions(fix: fix, principal: principal, report: report, messages: messages)
        let revision = messages.html(.fixPageRevisionOf, ["revision": "\(messages.number(fix.revision))", "key": "\(fix.key.rawValue)",
                                                          "state": Words.stateTag(fix.state, messages).render()])
        return request.translatedPage(fix.title, backLink: BackLink(href: "/console/fixes", text: messages[.fixPageAllFixes]),
                                      banner: FixPage.banner(request.http.query["done"], messages), content: """
        <h1 class="heading-l">\(messages.title(of: fix))</h1>
        <p class="body">\(revision)</p>
        \(actions.render())
        <h2 class="heading-m">\(messages[.fixPageDetails])</h2>
        \(FixPage.details(fix, messages))
        \(CriteriaSection(report: report, messages: messages).render())
        \(FeedbackSection(latest: latest, revision: fix.revision, messages: messages).render())
        \(ApprovalsSection(report: report, messages: messages).render())
        \(reportLink(fix, messages))
        """)
    }

    /// The fix's conformance report, once vouchd can make it from the link alone (docs/evidence.md).
    func reportLink(_ fix: Fix, _ messages: Messages) -> HTML {
        guard evidence.reportsWithoutAsking else { return .empty }
        return "<p class=\"body\"><a href=\"\(ConformanceReportPage.path(of: fix))\">\(messages[.acrFixLink])</a></p>"
    }

    static func details(_ fix: Fix, _ messages: Messages) -> HTML {
        // The criteria's names are WCAG's English ones (the console has no catalog of their translations): marked so.
        let wcag: HTML = fix.wcag.isEmpty ? "\(messages[.fixPageNoneGiven])"
            : "<ul class=\"list list--plain\">\(fix.wcag.map { number -> HTML in "<li>\(messages.authored(Words.wcag(number), language: Language.en.rawValue))</li>" })</ul>"
        let written: HTML = fix.language.flatMap(Language.init(rawValue:)).map { "<span lang=\"\($0.rawValue)\">\($0.nativeName)</span>" }
            ?? "\(messages[.fixPageNotRecorded])"
        var rows: [SummaryList.Row] = [
            .init(messages[.fixPageFlagKey], text: fix.key.rawValue),
            .init(messages[.fixPageTitle], messages.title(of: fix)),
            .init(messages[.fixPageUiArea], messages.area(of: fix)),
            .init(messages[.fixPagePlatforms], text: messages.list(fix.platforms.map(Words.platform))),
            .init(messages[.fixPageWcag], wcag),
            .init(messages[.fixPageExpectedAnnouncement], messages.expectedAnnouncement(of: fix) ?? "\(messages[.fixPageNoneGiven])"),
            .init(messages[.fixPageWrittenIn], written),
        ]
        if let description = fix.description { rows.append(.init(messages[.fixPageDescription], text: description)) }
        rows += [.init(messages[.fixPageAuthor], text: fix.author), .init(messages[.fixPageRevision], text: messages.number(fix.revision)),
                 .init(messages[.fixPageState], Words.stateTag(fix.state, messages).render())]
        if let pausedFrom = fix.pausedFrom { rows.append(.init(messages[.fixPagePausedFrom], text: messages.state(pausedFrom))) }
        if let percentage = fix.rolloutPercentage {
            rows.append(.init(messages[.fixPageRollout], text: messages(.fixPageRolloutPercentage, ["percentage": messages.number(percentage)])))
        }
        if let since = fix.testingSince { rows.append(.init(messages[.fixPageTestingSince], messages.staffTimeElement(since))) }
        return SummaryList(rows).render(messages)
    }

    /// The success banner after a change, chosen by a word in the address (never by text someone typed).
    static func banner(_ done: String?, _ messages: Messages) -> NotificationBanner? {
        let key: MessageKey? = switch done {
        case DecisionPages.approvedFlag: .bannerApproved
        case DecisionPages.rejectedFlag: .bannerRejected
        case "created": .bannerCreated
        case "edited": .bannerEdited
        case "criteria": .criteriaFormSaved
        case let flag? where MaintainerAction.allCases.contains(where: { $0.done == flag }):
            MaintainerAction.allCases.first { $0.done == flag }?.banner
        case let flag?: ReleaseAction.allCases.first { $0.doneFlag == flag }?.banner
        case nil: nil
        }
        return key.map { NotificationBanner(.success, heading: messages[$0]) }
    }
}
