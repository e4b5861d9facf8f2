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

    func show(_ request: ConsoleRequest) throws -> HTTPResponse {
        let principal = try request.signedIn
        let fix = try ReviewPages.fix(request, in: store)
        let report = try promotion.report(for: fix)
        let latest = try store.latestFeedback(of: fix.key.rawValue, revision: fix.revision)
        let actions = FixActions(fix: fix, principal: principal, report: report)
        return request.page(fix.title, backLink: BackLink(href: "/console/fixes", text: "All fixes"), banner: FixPage.banner(request.http.query["done"]),
                            content: """
        <h1 class="heading-l">\(fix.title)</h1>
        <p class="body">Revision \(fix.revision) of fix \(fix.key.rawValue). State: \(Words.stateTag(fix.state).render())</p>
        \(actions.render())
        <h2 class="heading-m">Details</h2>
        \(FixPage.details(fix))
        \(CriteriaSection(report: report).render())
        \(FeedbackSection(latest: latest, revision: fix.revision).render())
        \(ApprovalsSection(report: report).render())
        """)
    }

    static func details(_ fix: Fix) -> HTML {
        var rows: [SummaryList.Row] = [
            .init("Flag key", text: fix.key.rawValue),
            .init("Title", text: fix.title),
            .init("UI area", text: fix.uiArea),
            .init("Platforms", text: fix.platforms.map(Words.platform).joined(separator: ", ")),
            .init("WCAG success criteria", fix.wcag.isEmpty ? "None given"
                : "<ul class=\"list list--plain\">\(fix.wcag.map { number -> HTML in "<li>\(Words.wcag(number))</li>" })</ul>"),
            .init("Expected announcement", text: fix.expectedAnnouncement ?? "None given"),
        ]
        if let description = fix.description { rows.append(.init("Description", text: description)) }
        rows += [.init("Author", text: fix.author), .init("Revision", text: String(fix.revision)), .init("State", Words.stateTag(fix.state).render())]
        if let pausedFrom = fix.pausedFrom { rows.append(.init("Paused from", text: Words.state(pausedFrom))) }
        if let percentage = fix.rolloutPercentage { rows.append(.init("Rollout", text: "\(percentage) percent of users")) }
        if let since = fix.testingSince { rows.append(.init("In testing since", Words.timeElement(since))) }
        return SummaryList(rows).render()
    }

    /// The success banner after a change, chosen by a word in the address (never by text someone typed).
    static func banner(_ done: String?) -> NotificationBanner? {
        let heading: String? = switch done {
        case DecisionPages.approvedFlag: "Your approval is recorded"
        case DecisionPages.rejectedFlag: "Your rejection is recorded. The fix cannot be promoted until it has a new revision"
        case "created": "The fix is created as a draft. Enroll testers, then start testing"
        case "edited": "Your changes to the fix are saved"
        case let flag? where MaintainerAction.allCases.contains(where: { $0.done == flag }):
            MaintainerAction.allCases.first { $0.done == flag }?.banner
        case let flag?: ReleaseAction.allCases.first { $0.doneFlag == flag }?.banner
        case nil: nil
        }
        return heading.map { NotificationBanner(.success, heading: $0) }
    }
}
