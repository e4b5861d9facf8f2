import Foundation
import Testing
@testable import VouchDomain

/// Who shaped a fix's current revision, and so may not decide on it (docs/decisions.md, "Who may not approve").
struct RevisionAuthorTests {
    let time = Date(timeIntervalSince1970: 1_790_000_000)

    func fix(revision: Int) throws -> Fix {
        var fix = Fix(key: try FixKey(validating: "tv-channel-selector-labels"), title: "Label the logos", uiArea: "TV channel selector",
                      platforms: [.ios], wcag: ["4.1.2"], author: "maria", createdAt: time, updatedAt: time)
        fix.revision = revision
        return fix
    }

    func event(_ principal: String, _ action: AuditAction) -> AuditEvent {
        AuditEvent(at: time, principal: principal, action: action, fixKey: "tv-channel-selector-labels")
    }

    @Test func theCreatorAlwaysCountsEvenWithoutEvents() throws {
        #expect(RevisionAuthor.authors(of: try fix(revision: 1), from: []) == [RevisionAuthor(principal: "maria", reasons: ["created the fix"])])
    }

    @Test func contentAndRevisionsCountAlwaysTargetsAndCriteriaOnlySinceTheRevisionBegan() throws {
        let events = [
            event("maria", .fixCreate), event("eve", .fixUpdate), event("quinn", .fixTargets), event("rita", .fixCriteria),
            event("sam", .fixRevise), event("ted", .fixTargets), event("Eve", .fixRevise), event("uma", .fixCriteria), event("vic", .fixRollout),
            event("wes", .fixEnroll), event("xia", .fixStart),
        ]
        let authors = RevisionAuthor.authors(of: try fix(revision: 3), from: events)
        #expect(authors == [
            RevisionAuthor(principal: "maria", reasons: ["created the fix"]),
            RevisionAuthor(principal: "eve", reasons: ["changed the fix's content", "made revision 3"]),
            RevisionAuthor(principal: "sam", reasons: ["made an earlier revision"]),
            RevisionAuthor(principal: "uma", reasons: ["changed its criteria"]),
            RevisionAuthor(principal: "vic", reasons: ["changed its rollout"]),
        ])
        // quinn and rita changed targets and criteria of an earlier revision; ted's targets came before revision 3.
        #expect(RevisionAuthor.describe(authors).hasPrefix("maria (created the fix), eve (changed the fix's content and made revision 3)"))
    }

    @Test func anApprovalBySomeoneWhoLaterShapedTheRevisionStopsCounting() throws {
        let fix = try fix(revision: 1)
        let approval = Approval(id: "apr_1", fixKey: "tv-channel-selector-labels", revision: 1, principal: "eve", decision: .approve,
                                comment: nil, evidenceHash: "", recordedAt: time)
        let settings = CriteriaSettings(minTestersPassed: 0, requiredAssistiveTech: [], minSoakSeconds: 0)
        let authors = RevisionAuthor.authors(of: fix, from: [event("maria", .fixCreate), event("eve", .fixUpdate)])
        let input = CriteriaEvaluator.Input(fix: fix, settings: settings, latest: [], failing: [], testingSince: time, approvals: [approval],
                                            now: time.addingTimeInterval(60), authors: authors)
        let report = CriteriaEvaluator.evaluate(input)
        let criterion = try #require(report.criteria.first { $0.name == "approvals_required" })
        #expect(!criterion.met)
        #expect(criterion.missing == "1 more approval by a release manager other than its authors (maria and eve)")
        #expect(criterion.details.contains { $0.contains("does not count, since eve has since shaped this revision") })
        #expect(criterion.details.contains("may not decide on revision 1, having shaped it: maria (created the fix), eve (changed the fix's content)"))
    }
}
