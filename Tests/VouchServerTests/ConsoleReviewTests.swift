import Foundation
import Testing
@testable import VouchConsole
@testable import VouchDaemon
import VouchDomain
import VouchJSON
@testable import VouchServer

/// The release manager's console pages: fixes by state, the fix page, approving and rejecting, and the release
/// actions with their confirmation pages, through HTTP as a browser sends them.
@Suite(.serialized) struct ConsoleReviewTests {
    static let key = "tv-channel-selector-labels"
    static let fixPath = "/console/fixes/\(key)"
    /// Two passing testers needed: one tester's evidence and an approval leave the fix in testing.
    static let twoTesters = InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 2, requiredAssistiveTech: [], minSoakSeconds: 0))

    /// The channel selector fix (by the admin) in testing, with one enrolled VoiceOver tester who passed it; returns her id.
    @discardableResult
    func fixWithPassingTester(_ server: InProcessServer) throws -> String {
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        let tester = try server.createTester()
        try server.call("POST", "/v1/fixes/\(Self.key)/enrollments", json: #"{"testers":["\#(tester)"]}"#)
        let feedback = try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: FeedbackRoutesTests.passing(tester))
        guard feedback.status == 201 else { throw DaemonError("feedback answered \(feedback.status): \(feedback.text)") }
        return tester
    }

    func state(_ server: InProcessServer) throws -> String {
        try server.call("GET", "/v1/fixes/\(Self.key)").json["state"]?.stringValue ?? ""
    }

    /// Waits, at most five seconds, for the daemon's own promotion to reach `expected`; returns the last state seen.
    func waitForState(_ server: InProcessServer, _ expected: String) throws -> String {
        let deadline = Date().addingTimeInterval(5)
        var last = try state(server)
        while Date() < deadline, last != expected {
            Thread.sleep(forTimeInterval: 0.02)
            last = try state(server)
        }
        return last
    }

    /// A released fix, approved by rita through the API.
    func releasedFix(_ server: InProcessServer) throws {
        try fixWithPassingTester(server)
        let rita = try server.token(role: "release_manager", name: "rita")
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/approvals", token: rita, json: #"{"decision":"approve"}"#).status == 201)
        #expect(try waitForState(server, "released") == "released")
    }

    func approvals(_ server: InProcessServer) throws -> [JSONValue] {
        try server.call("GET", "/v1/fixes/\(Self.key)/approvals").json["approvals"]?.arrayValue ?? []
    }

    func evidenceHash(_ server: InProcessServer) throws -> String {
        try #require(try server.call("GET", "/v1/fixes/\(Self.key)/status").json["evidence_hash"]?.stringValue)
    }

    // MARK: Fixes by state

    @Test func theListShowsFixesByStateAndPages() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        #expect(try server.call("POST", "/v1/fixes", json: #"{"key":"web-checkout-labels","title":"Label the checkout fields","ui_area":"Checkout form","platforms":["web"]}"#).status == 201)
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        let all = try browser.get("/console/fixes")
        #expect(all.status == 200)
        #expect(all.html.contains("<title>Fixes – Vouch</title>"))
        #expect(all.html.contains("<a href=\"\(Self.fixPath)\">Label channel logos</a>"))
        #expect(all.html.contains("Label the checkout fields"))
        #expect(all.html.contains(">In testing</strong>") && all.html.contains(">Draft</strong>"), "states in words")
        #expect(all.html.contains("<form method=\"get\" action=\"/console/fixes\">"))
        #expect(!all.html.contains("Create a fix"), "a release manager does not create fixes")
        #expect(!all.html.contains("Next page"))

        let testing = try browser.get("/console/fixes?state=testing")
        #expect(testing.html.contains("<title>Fixes: In testing – Vouch</title>") && testing.html.contains("<h1 class=\"heading-l\">Fixes: In testing</h1>"))
        #expect(testing.html.contains("Label channel logos") && !testing.html.contains("Label the checkout fields"))
        #expect(testing.html.contains("value=\"testing\" checked"), "the chosen filter is shown")
        #expect(try browser.get("/console/fixes?state=abandoned").html.contains("No fix is abandoned now."))

        let bad = try browser.get("/console/fixes?state=shipped")
        #expect(bad.status == 422)
        #expect(bad.html.contains("<title>Error: Fixes – Vouch</title>"))
        #expect(bad.html.contains("href=\"#field-state\""))
        #expect(bad.html.contains("<h1 class=\"heading-l\">Fixes</h1>"))

        // A page holds 50 fixes; the next page starts after the last key shown.
        for index in 0..<FixListPage.pageSize {
            let body = #"{"key":"fix-\#(String(format: "%03d", index))","title":"Fix number \#(index)","ui_area":"Settings","platforms":["ios"]}"#
            #expect(try server.call("POST", "/v1/fixes", json: body).status == 201)
        }
        let first = try browser.get("/console/fixes")
        #expect(first.html.contains("Fix number 49") && !first.html.contains("Label channel logos"))
        #expect(first.html.contains("<a href=\"/console/fixes?after=fix-049\">Next page"))
        let second = try browser.get("/console/fixes?after=fix-049")
        #expect(second.html.contains("Label channel logos") && second.html.contains("Label the checkout fields"))
        #expect(!second.html.contains("Fix number") && !second.html.contains("Next page"))
        #expect(second.html.contains("<a href=\"/console/fixes\">First page"))

        let maintainer = try server.signedInBrowser(role: "maintainer", name: "mia")
        #expect(try maintainer.get("/console/fixes").html.contains("<a href=\"/console/new-fix\" class=\"button\">Create a fix</a>"))
    }

    @Test func aTesterCannotOpenTheStaffPages() throws {
        let server = try InProcessServer()
        let tester = try fixWithPassingTester(server)
        let browser = try server.testerBrowser(tester)
        for path in ["/console/fixes", Self.fixPath, Self.fixPath + "/decision", Self.fixPath + "/pause"] {
            #expect(try browser.get(path).status == 403, "\(path)")
        }
        let refusal = try browser.get(Self.fixPath + "/decision").html
        #expect(refusal.contains("Your role, tester, may not do this: it needs an administrator or a release manager, who may approve or reject fixes."))
        #expect(!refusal.contains("release_manager"))
        #expect(try browser.get("/console/fixes").html.contains("it needs an administrator, a release manager or a maintainer, who may read fixes"))
    }

    // MARK: The fix page

    @Test func theFixPageShowsCriteriaLatestFeedbackAndApprovals() throws {
        let server = try InProcessServer(settings: Self.twoTesters)
        let tester = try fixWithPassingTester(server)
        let rita = try server.token(role: "release_manager", name: "rita")
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/approvals", token: rita, json: #"{"decision":"approve","comment":"Works with VoiceOver"}"#).status == 201)
        let browser = try server.signedInBrowser(role: "release_manager", name: "sam")
        let page = try browser.get(Self.fixPath)
        #expect(page.status == 200)
        #expect(page.html.contains("<title>Label channel logos – Vouch</title>"))
        for text in ["TV channel selector", "Time in testing before promotion", "Revision 1 has been in testing for", "1.1.1 Non-text Content", "4.1.2 Name, Role, Value", "NHK, button, selected", "<dd class=\"summary-list__value\">admin</dd>",
                     // The criteria, in words and numbers.
                     "Criteria met: 5 of 6", "Minimum passing testers", "Not met</strong> 1 of 2 passing testers.", "Still needed: 1 more passing tester on revision 1.",
                     "Required approvals", "Met</strong> 1 of 1 valid approval.", ">Not ready</strong>",
                     // The latest feedback per tester, by pseudonym.
                     "Latest feedback per tester on revision 1", "\(tester)<br><span class=\"hint\">VoiceOver on iOS</span>", "<td>Passed</td>", "<td>Minor</td>",
                     // The approvals and their standing.
                     "<caption class=\"table__caption\">Approvals</caption>", "Comment: Works with VoiceOver", "<td>rita</td>", ">Valid</strong> It counts toward promotion."] {
            #expect(page.html.contains(text), "\(text)")
        }
        #expect(!page.html.contains("Aiko"), "a tester's name never reaches a release manager's page")
        for action in ["decision", "pause"] { #expect(page.html.contains("href=\"\(Self.fixPath)/\(action)\""), "\(action)") }
        for action in ["resume", "rollback", "retry-promotion", "edit", "start"] { #expect(!page.html.contains("href=\"\(Self.fixPath)/\(action)\""), "\(action)") }
        #expect(page.html.contains("Approve or reject<span class=\"visually-hidden\"> for fix Label channel logos</span>"))
        // Rita decided already: her vote stands, so she is told rather than offered the form again.
        let ritasPage = try server.signedInBrowser(role: "release_manager", name: "rita").get(Self.fixPath)
        #expect(!ritasPage.html.contains("\(Self.fixPath)/decision"))
        #expect(ritasPage.html.contains("You have decided on revision 1 already."))
        #expect(try browser.get("/console/fixes/no-such-fix").status == 404)
    }

    @Test func aMaintainerSeesNoReleaseActionsAndCannotTakeThem() throws {
        let server = try InProcessServer(settings: Self.twoTesters)
        try fixWithPassingTester(server)
        let browser = try server.signedInBrowser(role: "maintainer", name: "mia")
        let page = try browser.get(Self.fixPath)
        #expect(page.status == 200)
        for action in ["edit", "revise", "abandon", "targets", "enrollments"] { #expect(page.html.contains("href=\"\(Self.fixPath)/\(action)\""), "\(action)") }
        for action in ["decision", "pause", "rollback", "promote"] { #expect(!page.html.contains("href=\"\(Self.fixPath)/\(action)\""), "\(action)") }
        let csrf = try #require(page.csrf)
        for action in ["decision", "pause", "rollback", "promote"] {
            #expect(try browser.get(Self.fixPath + "/" + action).status == 403, "\(action)")
            let posted = try browser.post(Self.fixPath + "/" + action, [("csrf", csrf), ("decision", "approve"), ("step", "confirm"), ("reason", "test")])
            #expect(posted.status == 403, "\(action)")
            #expect(posted.html.contains("You cannot do this"))
        }
        #expect(try state(server) == "testing")
        #expect(try approvals(server).isEmpty)
    }

    // MARK: Approve or reject

    @Test func anApprovalGoesThroughItsConfirmationAndPromotesTheFix() throws {
        let server = try InProcessServer()
        try fixWithPassingTester(server)
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        let fixPage = try browser.get(Self.fixPath)
        #expect(fixPage.html.contains("href=\"\(Self.fixPath)/decision\""))
        let form = try browser.get(Self.fixPath + "/decision")
        #expect(form.status == 200)
        #expect(form.html.contains("<title>Approve or reject Label channel logos – Vouch</title>"))
        #expect(!form.html.contains(" checked"), "no decision is chosen for the person")
        // The fingerprint binds the form to the evidence shown, but a person reads what it means, never the hex.
        let hash = try evidenceHash(server)
        #expect(ConsoleBrowser.hiddenValue("evidence", in: form.html) == hash, "the evidence the decision binds to")
        #expect(!form.html.replacingOccurrences(of: "value=\"\(hash)\"", with: "").contains(hash), "the fingerprint is not shown")
        #expect(!form.html.contains("fingerprint"))
        #expect(form.html.contains("Your decision covers this evidence as it stands now. An approval stops counting when a tester reports after it that the fix fails"))
        let evidence = try #require(ConsoleBrowser.hiddenValue("evidence", in: form.html))
        let csrf = try #require(form.csrf)

        let missing = try browser.post(Self.fixPath + "/decision", [("csrf", csrf), ("comment", "Checked on my phone"), ("evidence", evidence), ("step", "check")])
        #expect(missing.status == 422)
        #expect(missing.html.contains("<title>Error: Approve or reject Label channel logos – Vouch</title>"))
        #expect(missing.html.contains("<a href=\"#field-decision\">Choose whether you approve or reject the fix</a>"))
        #expect(missing.html.contains(">Checked on my phone</textarea>"), "what was typed is kept")

        let check = try browser.post(Self.fixPath + "/decision", [("csrf", csrf), ("decision", "approve"), ("comment", "Checked on my phone"),
                                                                 ("evidence", evidence), ("step", "check")])
        #expect(check.status == 200)
        #expect(check.html.contains("<h1 class=\"heading-l\">Approve Label channel logos, revision 1?</h1>"))
        #expect(check.html.contains("when you confirm, Vouch starts promoting the fix to everyone at once"))
        #expect(try approvals(server).isEmpty, "nothing recorded before confirming")
        // "Change your decision" brings the form back with the answers.
        let change = try browser.post(Self.fixPath + "/decision", [("csrf", csrf), ("decision", "approve"), ("comment", "Checked on my phone"),
                                                                  ("evidence", evidence), ("step", "change")])
        #expect(change.html.contains("value=\"approve\" checked") && change.html.contains(">Checked on my phone</textarea>"))

        let confirmed = try browser.post(Self.fixPath + "/decision", [("csrf", csrf), ("decision", "approve"), ("comment", "Checked on my phone"),
                                                                     ("evidence", evidence), ("step", "confirm")])
        #expect(confirmed.status == 303)
        #expect(confirmed.location == Self.fixPath + "?done=approved")
        let recorded = try approvals(server)
        #expect(recorded.count == 1)
        #expect(recorded.first?["principal"]?.stringValue == "rita" && recorded.first?["comment"]?.stringValue == "Checked on my phone")
        let after = try browser.get(try #require(confirmed.location))
        #expect(after.html.contains("<p class=\"banner__heading\">Your approval is recorded</p>"))
        #expect(try waitForState(server, "released") == "released", "criteria met and approved: the daemon promotes the fix")
    }

    @Test func aRejectionNeedsACommentAndBlocksTheRevision() throws {
        let server = try InProcessServer()
        try fixWithPassingTester(server)
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        let form = try browser.get(Self.fixPath + "/decision")
        let fields = [("csrf", form.csrf ?? ""), ("decision", "reject"), ("evidence", try evidenceHash(server))]
        let missing = try browser.post(Self.fixPath + "/decision", fields + [("comment", "  "), ("step", "check")])
        #expect(missing.status == 422)
        #expect(missing.html.contains("href=\"#field-comment\""))
        #expect(missing.html.contains("value=\"reject\" checked"))
        // The API's own rule answers too when the form's check is passed by.
        let unchecked = try browser.post(Self.fixPath + "/decision", fields + [("comment", ""), ("step", "confirm")])
        #expect(unchecked.status == 422 && unchecked.html.contains("href=\"#field-comment\""))
        let check = try browser.post(Self.fixPath + "/decision", fields + [("comment", "Focus order still wrong"), ("step", "check")])
        #expect(check.html.contains("Reject Label channel logos, revision 1?"))
        #expect(check.html.contains("button--warning"))
        #expect(check.html.contains("you cannot withdraw it"))
        let confirmed = try browser.post(Self.fixPath + "/decision", fields + [("comment", "Focus order still wrong"), ("step", "confirm")])
        #expect(confirmed.location == Self.fixPath + "?done=rejected")
        let page = try browser.get(Self.fixPath + "?done=rejected")
        #expect(page.html.contains("Your rejection is recorded"))
        #expect(page.html.contains(">Blocking</strong> It blocks promotion until a new revision."))
        #expect(page.html.contains("Comment: Focus order still wrong"))
        #expect(try state(server) == "testing")
    }

    @Test func theAuthorIsRefusedInTheAPIsWordsAndKeepsTheComment() throws {
        let server = try InProcessServer(settings: Self.twoTesters)
        try fixWithPassingTester(server)
        // The admin created the fix: an administrator may approve, but not her own fix.
        let browser = try server.signedInBrowser()
        let page = try browser.get(Self.fixPath)
        #expect(!page.html.contains("\(Self.fixPath)/decision"))
        #expect(page.html.contains("You created this fix, so another release manager must approve or reject it."))
        #expect(try browser.get(Self.fixPath + "/decision").html.contains("You cannot decide on Label channel logos now"))
        let refused = try browser.post(Self.fixPath + "/decision", [("csrf", page.csrf ?? ""), ("decision", "approve"), ("comment", "Looks good to me"),
                                                                   ("evidence", try evidenceHash(server)), ("step", "confirm")])
        #expect(refused.status == 422)
        #expect(refused.html.contains("<title>Error: Approve or reject Label channel logos – Vouch</title>"))
        #expect(refused.html.contains("Admin may not approve or reject revision 1 of fix \(Self.key), having shaped it (created the fix); another release manager must decide"))
        #expect(refused.html.contains("href=\"#field-decision\""))
        #expect(refused.html.contains(">Looks good to me</textarea>"))
        #expect(try approvals(server).isEmpty)

        // One standing vote per principal: a second approval is refused in the API's words.
        let rita = try server.signedInBrowser(role: "release_manager", name: "rita")
        let form = try rita.get(Self.fixPath + "/decision")
        let fields = [("csrf", form.csrf ?? ""), ("decision", "approve"), ("comment", ""), ("evidence", try evidenceHash(server)), ("step", "confirm")]
        #expect(try rita.post(Self.fixPath + "/decision", fields).status == 303)
        let again = try rita.post(Self.fixPath + "/decision", fields)
        #expect(again.status == 422)
        #expect(again.html.contains("Rita already approved revision 1"))
    }

    @Test func aDecisionOnEvidenceThatChangedIsAskedAgain() throws {
        let server = try InProcessServer(settings: Self.twoTesters)
        try fixWithPassingTester(server)
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        let form = try browser.get(Self.fixPath + "/decision")
        let seen = try #require(ConsoleBrowser.hiddenValue("evidence", in: form.html))
        let second = try server.createTester(name: "Ben", keys: ["user-8"])
        try server.call("POST", "/v1/fixes/\(Self.key)/enrollments", json: #"{"testers":["\#(second)"]}"#)
        let failing = FeedbackRoutesTests.passing(second).replacingOccurrences(of: "\"passed\"", with: "\"failed\"").replacingOccurrences(of: "\"minor\"", with: "\"serious\"")
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: failing).status == 201)
        let page = try browser.post(Self.fixPath + "/decision", [("csrf", form.csrf ?? ""), ("decision", "approve"), ("comment", ""), ("evidence", seen), ("step", "confirm")])
        #expect(page.status == 422)
        #expect(page.html.contains("The evidence changed while you were deciding"))
        #expect(page.html.contains("1 blocking"))
        #expect(try approvals(server).isEmpty)
    }

    // MARK: Release actions

    @Test func pauseResumeAndRollBackAfterTheirConfirmations() throws {
        let server = try InProcessServer()
        try releasedFix(server)
        let browser = try server.signedInBrowser(role: "release_manager", name: "sam")
        let page = try browser.get(Self.fixPath)
        for action in ["pause", "rollback"] { #expect(page.html.contains("href=\"\(Self.fixPath)/\(action)\""), "\(action)") }
        for action in ["resume", "promote", "decision"] { #expect(!page.html.contains("href=\"\(Self.fixPath)/\(action)\""), "\(action)") }

        let pause = try browser.get(Self.fixPath + "/pause")
        #expect(pause.status == 200)
        #expect(pause.html.contains("<title>Pause Label channel logos? – Vouch</title>"))
        #expect(pause.html.contains(">Released</strong>"))
        #expect(pause.html.contains("The fix&#39;s flag goes off at once for everyone, including the testers, until someone resumes the fix."))
        #expect(pause.html.contains("People who use the app with the fix lose it now."))
        #expect(pause.html.contains("class=\"button button--warning\">Pause the fix</button>"))
        #expect(try state(server) == "released", "opening the confirmation changes nothing")
        let paused = try browser.post(Self.fixPath + "/pause", [("csrf", pause.csrf ?? "")])
        #expect(paused.status == 303 && paused.location == Self.fixPath + "?done=paused")
        #expect(try state(server) == "paused")
        #expect(try server.evaluate(Self.key, targetingKey: "user-7").json["value"] == .bool(false), "off for the tester too")
        #expect(try browser.get(try #require(paused.location)).html.contains("The fix is paused: its flag is off for everyone"))

        let resume = try browser.get(Self.fixPath + "/resume")
        #expect(resume.html.contains("The fix returns to released: its flag is on again for everyone."))
        #expect(try browser.post(Self.fixPath + "/resume", [("csrf", resume.csrf ?? "")]).location == Self.fixPath + "?done=resumed")
        #expect(try state(server) == "released")

        let rollback = try browser.get(Self.fixPath + "/rollback")
        #expect(rollback.html.contains("starting it again makes revision 2"))
        #expect(rollback.html.contains("<label class=\"label\" for=\"field-reason\">Why are you rolling back the fix?</label>"))
        let noReason = try browser.post(Self.fixPath + "/rollback", [("csrf", rollback.csrf ?? ""), ("reason", " ")])
        #expect(noReason.status == 422)
        #expect(noReason.html.contains("<title>Error: Roll back Label channel logos? – Vouch</title>"))
        #expect(noReason.html.contains("<a href=\"#field-reason\">Enter why you are rolling back the fix</a>"))
        #expect(try state(server) == "released")
        let rolledBack = try browser.post(Self.fixPath + "/rollback", [("csrf", rollback.csrf ?? ""), ("reason", "Crashes with TalkBack on")])
        #expect(rolledBack.location == Self.fixPath + "?done=rolled-back")
        #expect(try state(server) == "rolled_back")
        #expect(try server.evaluate(Self.key, targetingKey: "someone").json["value"] == .bool(false))
        let audit = try server.call("GET", "/v1/audit?fix=\(Self.key)").json["events"]?.arrayValue ?? []
        let event = try #require(audit.first { $0["action"]?.stringValue == "fix.rollback" })
        #expect(event["principal"]?.stringValue == "sam" && event["note"]?.stringValue == "Crashes with TalkBack on")

        // A page opened before the change: the API's refusal, in words.
        let stale = try browser.post(Self.fixPath + "/pause", [("csrf", rollback.csrf ?? "")])
        #expect(stale.status == 409)
        #expect(stale.html.contains("This cannot be done now"))
        #expect(stale.html.contains("rolled back"))
        #expect(try browser.get(Self.fixPath + "/pause").html.contains("This cannot be done now: the fix is rolled back."))
    }

    @Test func promotingAFixThatMissesCriteriaSaysWhatIsMissing() throws {
        let server = try InProcessServer(settings: Self.twoTesters)
        try fixWithPassingTester(server)
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        #expect(try browser.get(Self.fixPath).html.contains("href=\"\(Self.fixPath)/promote\""))
        let page = try browser.get(Self.fixPath + "/promote")
        #expect(page.status == 200)
        #expect(page.html.contains("The fix cannot be promoted yet."))
        #expect(page.html.contains("1 more passing tester on revision 1"))
        #expect(!page.html.contains("Promote the fix</button>"))
        let forced = try browser.post(Self.fixPath + "/promote", [("csrf", page.csrf ?? "")])
        #expect(forced.status == 409)
        #expect(forced.html.contains("does not meet its criteria yet"))
        #expect(try state(server) == "testing")
    }

    @Test func aFormWithoutTheSessionsCSRFTokenChangesNothing() throws {
        let server = try InProcessServer()
        try releasedFix(server)
        let browser = try server.signedInBrowser(role: "release_manager", name: "sam")
        #expect(try browser.post(Self.fixPath + "/pause", []).status == 403)
        #expect(try browser.post(Self.fixPath + "/rollback", [("csrf", "forged"), ("reason", "x")]).status == 403)
        #expect(try state(server) == "released")
        let other = try InProcessServer(settings: Self.twoTesters)
        try fixWithPassingTester(other)
        let rita = try other.signedInBrowser(role: "release_manager", name: "rita")
        let refused = try rita.post(Self.fixPath + "/decision", [("decision", "approve"), ("evidence", try evidenceHash(other)), ("step", "confirm")])
        #expect(refused.status == 403)
        #expect(try approvals(other).isEmpty)
    }
}
