import Foundation
import Testing
import VouchDomain

/// The criteria evaluator as a pure function of evidence, approvals and a fixed clock.
struct CriteriaEvaluatorTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    func fix(state: FixState = .testing, revision: Int = 1, platforms: [Platform] = [.ios, .android]) throws -> Fix {
        Fix(key: try FixKey(validating: "tv-channel-selector-labels"), title: "T", uiArea: "TV channel selector", platforms: platforms,
            author: "maria", revision: revision, state: state, createdAt: start, updatedAt: start)
    }

    func feedback(_ id: String, tester: String, verdict: Verdict = .passed, severity: Severity = .minor, platform: Platform = .ios,
                  technology: AssistiveTechnology = .voiceover, regression: Bool = false, at offset: Double = 0) -> Feedback {
        Feedback(id: id, fixKey: "tv-channel-selector-labels", revision: 1, testerID: tester, platform: platform, osVersion: "18", appBuild: "1",
                 assistiveTech: technology, verdict: verdict, taskOutcome: .completedIndependently, severity: severity, regression: regression,
                 channel: .cli, recordedBy: "maria", recordedAt: start.addingTimeInterval(offset))
    }

    func approval(_ principal: String, decision: Approval.Decision = .approve, revision: Int = 1, at offset: Double) -> Approval {
        Approval(id: "apr_\(principal)", fixKey: "tv-channel-selector-labels", revision: revision, principal: principal, decision: decision,
                 comment: decision == .reject ? "no" : nil, evidenceHash: "x", recordedAt: start.addingTimeInterval(offset))
    }

    func report(latest: [Feedback], failing: [(String, Double)] = [], approvals: [Approval] = [], hoursInTesting: Double = 25,
                settings: CriteriaSettings = CriteriaSettings(), fix: Fix? = nil) throws -> CriteriaReport {
        let now = start.addingTimeInterval(hoursInTesting * 3_600)
        return CriteriaEvaluator.evaluate(.init(
            fix: try fix ?? self.fix(), settings: settings, latest: latest, failing: failing.map { (id: $0.0, recordedAt: start.addingTimeInterval($0.1)) },
            testingSince: start, approvals: approvals, now: now))
    }

    func criterion(_ report: CriteriaReport, _ name: String) -> CriteriaReport.Criterion? { report.criteria.first { $0.name == name } }

    @Test func everythingMetMakesTheFixReady() throws {
        let result = try report(latest: [feedback("a", tester: "t1"), feedback("b", tester: "t2", platform: .android, technology: .talkback)],
                                approvals: [approval("rita", at: 3_600)])
        #expect(result.allMet)
        #expect(result.readyToPromote)
        #expect(result.missing.isEmpty)
        #expect(criterion(result, "min_testers_passed")?.summary == "2 of 2 passing testers")
    }

    @Test func missingTechnologyIsNamed() throws {
        let result = try report(latest: [feedback("a", tester: "t1"), feedback("b", tester: "t2")], approvals: [approval("rita", at: 60)])
        let technology = try #require(criterion(result, "required_assistive_tech"))
        #expect(!technology.met)
        #expect(technology.details == ["VoiceOver on iOS: 2 passing testers", "TalkBack on Android: no passing tester yet"])
        #expect(technology.missing == "a passing tester with TalkBack on Android")
        #expect(!result.readyToPromote)
    }

    @Test func soakIsCountedInWordsAndNumbers() throws {
        let result = try report(latest: [], hoursInTesting: 3)
        let soak = try #require(criterion(result, "min_soak"))
        #expect(!soak.met)
        #expect(soak.summary == "revision 1 has been in testing for 3 hours; 24 hours needed")
        #expect(soak.missing == "21 hours more in testing on revision 1")
        let input = CriteriaEvaluator.Input(fix: try fix(), settings: CriteriaSettings(), latest: [], failing: [], testingSince: start, approvals: [],
                                            now: start.addingTimeInterval(3 * 3_600))
        #expect(CriteriaEvaluator.nextTimeChange(input) == start.addingTimeInterval(24 * 3_600))
    }

    @Test func blockingAndRatio() throws {
        let latest = [feedback("a", tester: "t1"), feedback("b", tester: "t2", platform: .android, technology: .talkback),
                      feedback("c", tester: "t3", verdict: .failed, severity: .serious), feedback("d", tester: "t4", regression: true),
                      feedback("e", tester: "t5", verdict: .cantTell)]
        let result = try report(latest: latest, approvals: [approval("rita", at: 60)])
        let blocking = try #require(criterion(result, "max_blocking"))
        #expect(!blocking.met)
        #expect(blocking.summary == "2 blocking reports (at most 0 allowed)")
        let ratio = try #require(criterion(result, "min_pass_ratio"))
        #expect(ratio.met == false)
        #expect(ratio.summary == "pass ratio 0.75: 3 passed and 1 failed, can't tell not counted; 0.80 needed")
    }

    @Test func approvalsByTheAuthorOtherRevisionsOrBeforeFailingFeedbackDoNotCount() throws {
        let passing = [feedback("a", tester: "t1"), feedback("b", tester: "t2", platform: .android, technology: .talkback)]
        let byAuthor = try report(latest: passing, approvals: [approval("maria", at: 60)])
        #expect(criterion(byAuthor, "approvals_required")?.met == false)
        let oldRevision = try report(latest: passing, approvals: [approval("rita", revision: 1, at: 60)], fix: try fix(revision: 2))
        #expect(oldRevision.approvals.first?.standing == .otherRevision(1))
        let voided = try report(latest: passing, failing: [("f1", 120)], approvals: [approval("rita", at: 60)])
        #expect(voided.approvals.first?.standing == .voidedByFailingFeedback(feedbackID: "f1"))
        let failingBefore = try report(latest: passing, failing: [("f0", 30)], approvals: [approval("rita", at: 60)])
        #expect(failingBefore.approvals.first?.standing == .valid)
    }

    @Test func approvalsExpire() throws {
        let passing = [feedback("a", tester: "t1"), feedback("b", tester: "t2", platform: .android, technology: .talkback)]
        let settings = CriteriaSettings(approvalExpirySeconds: 3_600)
        let fresh = try report(latest: passing, approvals: [approval("rita", at: 24 * 3_600)], hoursInTesting: 24.5, settings: settings)
        #expect(fresh.allMet)
        let stale = try report(latest: passing, approvals: [approval("rita", at: 24 * 3_600)], hoursInTesting: 25.5, settings: settings)
        guard case .expired = stale.approvals.first?.standing else { Issue.record("the approval should have expired"); return }
        #expect(!stale.allMet)
    }

    @Test func aRejectionBlocksThisRevision() throws {
        let passing = [feedback("a", tester: "t1"), feedback("b", tester: "t2", platform: .android, technology: .talkback)]
        let result = try report(latest: passing, approvals: [approval("rita", at: 60), approval("sam", decision: .reject, at: 90)])
        let approvals = try #require(criterion(result, "approvals_required"))
        #expect(!approvals.met)
        #expect(approvals.missing?.contains("new revision") == true)
    }

    @Test func overridesReplaceDefaults() throws {
        let settings = CriteriaSettings().applying(CriteriaOverrides(minTestersPassed: 1, requiredAssistiveTech: [], minSoakSeconds: 0))
        let result = try report(latest: [feedback("a", tester: "t1")], approvals: [approval("rita", at: 60)], hoursInTesting: 0, settings: settings)
        #expect(result.allMet)
    }

    /// Settings that ask for no approval (stored before the rule, or built by hand) still need one release manager.
    @Test func noSettingsMakeAFixPromotableWithoutAnApproval() throws {
        for required in [0, -1, Int.min] {
            let settings = CriteriaSettings(minTestersPassed: 0, requiredAssistiveTech: [], minPassRatio: 0, minSoakSeconds: 0, approvalsRequired: required)
            let alone = try report(latest: [], hoursInTesting: 0, settings: settings)
            #expect(!alone.allMet, "approvals_required \(required) let a fix through without an approval")
            #expect(criterion(alone, "approvals_required")?.met == false)
            let approved = try report(latest: [], approvals: [approval("rita", at: 60)], hoursInTesting: 0, settings: settings)
            #expect(criterion(approved, "approvals_required")?.met == true)
        }
    }

    @Test func readyOnlyInTesting() throws {
        let passing = [feedback("a", tester: "t1"), feedback("b", tester: "t2", platform: .android, technology: .talkback)]
        let paused = try report(latest: passing, approvals: [approval("rita", at: 60)], fix: try fix(state: .paused))
        #expect(paused.allMet)
        #expect(!paused.readyToPromote)
        // Not ready, and not because anything is missing: the report says what became of the promotion instead.
        #expect(paused.promotion == "paused in testing: the flag is off for everyone until the fix is resumed")
        #expect(try report(latest: passing, approvals: [approval("rita", at: 60)]).promotion == nil)
    }

    /// No soak and no ratio asked for read "none needed", never "of 0 s"; a draft has not entered testing yet.
    @Test func criteriaThatAskForNothingSaySo() throws {
        let settings = CriteriaSettings(minPassRatio: 0, minSoakSeconds: 0)
        let result = try report(latest: [feedback("a", tester: "t1", verdict: .cantTell)], hoursInTesting: 49.5, settings: settings)
        #expect(criterion(result, "min_soak")?.summary == "revision 1 has been in testing for 2 days 1 hour; none needed")
        #expect(criterion(result, "min_pass_ratio")?.summary == "pass ratio: no passed or failed verdicts yet; none needed")
        let draft = CriteriaEvaluator.evaluate(.init(fix: try fix(state: .draft), settings: CriteriaSettings(), latest: [], failing: [], testingSince: nil,
                                                     approvals: [], now: start))
        #expect(criterion(draft, "min_soak")?.summary == "revision 1 has not entered testing yet; 24 hours needed")
    }

    @Test(arguments: [(0, "0 seconds"), (1, "1 second"), (59, "59 seconds"), (60, "1 minute"), (150, "2 minutes"), (3_600, "1 hour"),
                      (5_400, "1 hour 30 minutes"), (86_400, "24 hours"), (2 * 86_400, "2 days"), (3 * 86_400 + 3_600, "3 days 1 hour")])
    func durationsInWords(_ seconds: Int, _ words: String) {
        #expect(CriteriaEvaluator.duration(seconds) == words)
    }

    /// The seeds' story: an iOS-only fix, two VoiceOver testers passing, an approval. The defaults must let it through.
    @Test func requiredTechnologiesApplyOnlyToThePlatformsTheFixShipsOn() throws {
        let passing = [feedback("a", tester: "t1"), feedback("b", tester: "t2")]
        let iosOnly = try report(latest: passing, approvals: [approval("rita", at: 60)], fix: try fix(platforms: [.ios]))
        #expect(iosOnly.allMet, "an iOS fix waited for \(criterion(iosOnly, "required_assistive_tech")?.missing ?? "")")
        #expect(criterion(iosOnly, "required_assistive_tech")?.details == ["VoiceOver on iOS: 2 passing testers"])
        // Shipping on Android too, TalkBack is required as well.
        let both = try report(latest: passing, approvals: [approval("rita", at: 60)], fix: try fix(platforms: [.ios, .android]))
        #expect(criterion(both, "required_assistive_tech")?.missing == "a passing tester with TalkBack on Android")
        // On the web, NVDA.
        let web = [feedback("c", tester: "t3", platform: .web, technology: .nvda), feedback("d", tester: "t4", platform: .web, technology: .jaws)]
        let webOnly = try report(latest: web, approvals: [approval("rita", at: 60)], fix: try fix(platforms: [.web]))
        #expect(webOnly.allMet)
        #expect(criterion(webOnly, "required_assistive_tech")?.details == ["NVDA on the web: 1 passing tester"])
        let noNVDA = try report(latest: [web[1], feedback("e", tester: "t5", platform: .web, technology: .narrator)],
                                approvals: [approval("rita", at: 60)], fix: try fix(platforms: [.web]))
        #expect(criterion(noNVDA, "required_assistive_tech")?.missing == "a passing tester with NVDA on the web")
    }
}
