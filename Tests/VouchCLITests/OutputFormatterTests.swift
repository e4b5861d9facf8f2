import Foundation
import Testing
import VouchJSON
@testable import VouchCLI

/// The plain lines made of server answers, in-process, for the states a live test cannot hold still long enough to read
/// (a promotion waiting for its webhooks).
@Suite struct OutputFormatterTests {
    static func report(state: String, promotion: String?) -> JSONValue {
        .object([
            "fix": .string("tv-channel-selector-labels"), "revision": .int(2), "state": .string(state), "criteria_met": .bool(true),
            "ready_to_promote": .bool(false), "promotion": promotion.map(JSONValue.string) ?? .null,
            "criteria": .array([.object(["name": .string("min_soak"), "met": .bool(true), "summary": .string("revision 2 has been in testing for 3 hours; 2 hours needed"),
                                         "details": .array([]), "missing": .null])]),
            "missing": .array([]), "approvals": .array([]), "evidence_hash": .string("0123456789abcdef"), "rollout_percentage": .null,
        ])
    }

    @Test func promotingSaysWhatItWaitsFor() {
        #expect(OutputFormatter.status(Self.report(state: "promoting", promotion: "waiting for the required webhooks to accept the promotion")) == [
            "Fix: tv-channel-selector-labels",
            "State: promoting",
            "Revision: 2",
            "Criteria met: 1 of 1",
            "Criterion time in testing before promotion: met. Revision 2 has been in testing for 3 hours; 2 hours needed.",
            "Approvals: none",
            "Promotion: waiting for the required webhooks to accept the promotion; follow the deliveries with 'vouch webhook deliveries'",
        ])
    }

    /// Each state past testing ends with what happened and, where a person can act, the command; never "Ready to promote".
    @Test(arguments: [
        ("draft", "not started: the fix is a draft and must be started before it can be promoted",
         "Promotion: not started: the fix is a draft and must be started before it can be promoted; start testing with 'vouch fix start tv-channel-selector-labels'"),
        ("promotion_failed", "failed: a required webhook delivery was not accepted",
         "Promotion: failed: a required webhook delivery was not accepted; retry with 'vouch fix retry-promotion tv-channel-selector-labels'"),
        ("releasing", "releasing in phases, now to 10 percent of users", "Promotion: releasing in phases, now to 10 percent of users"),
        ("released", "released to everyone", "Promotion: released to everyone"),
        ("abandoned", "abandoned: the fix will not be promoted", "Promotion: abandoned: the fix will not be promoted"),
    ])
    func promotionLine(_ state: String, _ promotion: String, _ expected: String) {
        let lines = OutputFormatter.status(Self.report(state: state, promotion: promotion))
        #expect(lines.last == expected)
        #expect(!lines.contains { $0.hasPrefix("Missing") || $0.hasPrefix("Ready to promote") })
    }

    /// In testing the server sends no promotion: the criteria decide, so what is missing and readiness are told.
    @Test func testingTellsWhatIsMissing() {
        let lines = OutputFormatter.status(Self.report(state: "testing", promotion: nil))
        #expect(Array(lines.suffix(3)) == ["Missing: nothing", "Approvals: none", "Ready to promote: no"])
    }

    /// The platform is said once, whether or not the version was typed with its name.
    @Test(arguments: [("ios", "18.2", "iOS 18.2"), ("ios", "iOS 18.2", "iOS 18.2"), ("ios", "ios18.2", "iOS 18.2"), ("android", "Android 15", "Android 15"),
                      ("android", "15", "Android 15"), ("web", "Windows 11", "the web, Windows 11"), ("ios", "iOS", "iOS")])
    func platformAndVersion(_ platform: String, _ version: String, _ expected: String) {
        #expect(OutputFormatter.platformAndVersion(.object(["platform": .string(platform), "os_version": .string(version)])) == expected)
    }

    /// Feedback staff entered on a tester's link says so, and the audit event says through which link and who opened it.
    @Test func feedbackEnteredByStaffOnATestersLinkSaysSo() {
        let record = JSONValue.object([
            "id": .string("fb_d96c8cyh49todomw"), "tester": .string("t_4w9tedpdf8fc"), "revision": .int(1), "verdict": .string("passed"),
            "task_outcome": .string("completed_independently"), "severity": .string("none"), "assistive_tech": .string("voiceover"),
            "platform": .string("ios"), "os_version": .string("18.2"), "app_build": .string("412"), "recorded_at": .string("2026-12-01T10:00:00.000Z"),
            "recorded_by": .string("t_4w9tedpdf8fc"), "channel": .string("web"),
            "link": .object(["id": .string("l_1"), "created_by": .string("mona"), "opened_by": .string("mona")]),
        ])
        #expect(OutputFormatter.feedbackLine(record).hasSuffix(" Entered by mona on the tester's personal link, not by the tester."))
        var own = record.objectValue!
        own["link"] = .object(["id": .string("l_1"), "created_by": .string("mona"), "opened_by": .null])
        #expect(!OutputFormatter.feedbackLine(.object(own)).contains("Entered by"))
        let event = JSONValue.object([
            "at": .string("2026-12-01T10:00:00.000Z"), "principal": .string("t_4w9tedpdf8fc"), "action": .string("feedback.create"),
            "fix": .string("tv-channel-selector-labels"), "subject": .string("fb_1"),
            "via": .string("link l_1 created by mona, opened in a browser signed in as mona"),
        ])
        #expect(OutputFormatter.eventLine(event).hasSuffix(", through link l_1 created by mona, opened in a browser signed in as mona."))
    }

    /// A decision made after signing in through the identity provider says so; one made with a token, the usual way, says nothing more.
    @Test func anAuditEventSaysASignInThroughTheIdentityProviderAndNotATokenTheUsualWay() {
        var event: JSONObject = ["at": .string("2026-12-01T10:00:00.000Z"), "principal": .string("ana@example.org"), "action": .string("approval.approve"),
                                 "fix": .string("tv-channel-selector-labels"), "via": .string("identity provider sign-in (oidc)")]
        #expect(OutputFormatter.eventLine(.object(event)).hasSuffix(", through identity provider sign-in (oidc)."))
        event["via"] = .string("token")
        #expect(!OutputFormatter.eventLine(.object(event)).contains("through"))
    }

    @Test func auditEventsAreSentences() {
        let event = JSONValue.object([
            "at": .string("2026-12-01T10:00:00.000Z"), "principal": .string("admin"), "action": .string("feedback.create"),
            "fix": .string("tv-channel-selector-labels"), "subject": .string("fb_1"),
            "after": .object(["tester": .string("t_4w9tedpdf8fc"), "verdict": .string("cant_tell")]),
        ])
        #expect(OutputFormatter.eventLine(event)
                == "1 December 2026 at 10:00 UTC: admin recorded feedback fb_1 on fix tv-channel-selector-labels, tester ending dpdf8fc, verdict can't tell.")
    }
}

/// `vouch eval --watch`'s line for a change, which a screen reader reads as it comes.
@Suite struct EvaluationChangeLineTests {
    static let off: JSONValue = .object(["key": .string("k"), "value": .bool(false), "reason": .string("DEFAULT"), "variant": .string("off"),
                                         "metadata": .object(["revision": .int(1), "state": .string("testing")])])
    static let on: JSONValue = .object(["key": .string("k"), "value": .bool(true), "reason": .string("TARGETING_MATCH"), "variant": .string("on"),
                                        "metadata": .object(["revision": .int(2), "state": .string("promotion_failed")])])

    @Test func labelsEachValueAndSaysWhatItWas() {
        let line = OutputFormatter.evaluationChange(Self.on, was: Self.off, at: Date(timeIntervalSince1970: 0))
        #expect(line.wholeMatch(of: /At \d\d:\d\d:\d\d: on, reason targeting match, revision 2, state promotion failed \(was off, reason default\)/) != nil, "\(line)")
    }

    @Test func anErrorAnswerSaysTheErrorInWords() {
        let gone: JSONValue = .object(["key": .string("k"), "errorCode": .string("FLAG_NOT_FOUND")])
        let line = OutputFormatter.evaluationChange(gone, was: Self.on, at: Date(timeIntervalSince1970: 0))
        #expect(line.hasSuffix(": error, flag not found (was on, reason targeting match)"), "\(line)")
    }
}
