import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch status`, `approve`, `reject` and `fix promote` against a live vouchd whose criteria a test meets in seconds:
/// one passing VoiceOver tester, no soak, one release manager's approval, and a required webhook answered by the test.
@Suite struct PromotionCommandsTests {
    static let key = DaemonProcess.fixKey

    /// The time-in-testing line counts the time since the fix entered testing; the golden texts say "0 seconds".
    static func zeroSoak(_ run: VouchRun) -> VouchRun {
        var run = run
        run.stdout = run.stdout.replacing(/in testing for [^;\n]+; none needed/, with: "in testing for 0 seconds; none needed")
        return run
    }

    @Test func fromTestingToReleased() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let server = try DaemonProcess(environment: DaemonProcess.promotionEnvironment)
        defer { server.stop() }
        let added = try server.vouch("webhook", "add", receiver.url, "--events", "fix.promoted,fix.released", "--required")
        #expect(added.status == 0, "\(added)")
        let tester = try server.startedFixAndTester()
        let rita = try server.token(role: "release_manager", name: "rita")

        #expect(Self.zeroSoak(try server.vouch("status", Self.key)) == VouchRun(status: 0, stdout: """
            Fix: tv-channel-selector-labels
            State: testing
            Revision: 1
            Criteria met: 2 of 6
            Criterion minimum passing testers: not met. 0 of 1 passing tester.
            Criterion required assistive technologies: not met. 0 of 1 required assistive technologies covered.
              VoiceOver on iOS: no passing tester yet
            Criterion maximum blocking reports: met. 0 blocking reports (at most 0 allowed).
            Criterion minimum pass ratio: not met. Pass ratio: no passed or failed verdicts yet; 0.80 needed.
            Criterion time in testing before promotion: met. Revision 1 has been in testing for 0 seconds; none needed.
            Criterion required approvals: not met. 0 of 1 valid approval.
            Missing:
              1 more passing tester on revision 1
              a passing tester with VoiceOver on iOS
              a pass ratio of at least 0.80
              1 more approval by a release manager other than the author (admin)
            Approvals: none
            Ready to promote: no

            """, stderr: ""))

        // Promotion by hand is refused while criteria are unmet, each one named.
        #expect(try server.vouch(["fix", "promote", Self.key], as: .token(rita)) == VouchRun(status: 65, stdout: "", stderr: """
            Error: fix tv-channel-selector-labels does not meet its criteria yet: 1 more passing tester on revision 1; a passing tester with VoiceOver on iOS; \
            a pass ratio of at least 0.80; 1 more approval by a release manager other than the author (admin)
              minimum passing testers: 1 more passing tester on revision 1
              required assistive technologies: a passing tester with VoiceOver on iOS
              minimum pass ratio: a pass ratio of at least 0.80
              required approvals: 1 more approval by a release manager other than the author (admin)
            The fix was not promoted; see every criterion with 'vouch status tv-channel-selector-labels'.

            """))
        // The author may not decide on their own fix: the server's reason, and no advice to change tokens.
        #expect(try server.vouch("approve", Self.key) == VouchRun(status: 77, stdout: "", stderr: """
            Error: Not allowed: admin may not approve or reject revision 1 of fix tv-channel-selector-labels, having shaped it (created the fix); another release manager must decide.

            """))

        #expect(try server.vouch(FeedbackCommandsTests.anaReport(tester)).status == 0)
        #expect(Self.zeroSoak(try server.vouch("status", Self.key)) == VouchRun(status: 0, stdout: """
            Fix: tv-channel-selector-labels
            State: testing
            Revision: 1
            Criteria met: 5 of 6
            Criterion minimum passing testers: met. 1 of 1 passing tester.
            Criterion required assistive technologies: met. 1 of 1 required assistive technologies covered.
              VoiceOver on iOS: 1 passing tester
            Criterion maximum blocking reports: met. 0 blocking reports (at most 0 allowed).
            Criterion minimum pass ratio: met. Pass ratio 1.00: 1 passed and 0 failed, can't tell not counted; 0.80 needed.
            Criterion time in testing before promotion: met. Revision 1 has been in testing for 0 seconds; none needed.
            Criterion required approvals: not met. 0 of 1 valid approval.
            Missing:
              1 more approval by a release manager other than the author (admin)
            Approvals: none
            Ready to promote: no

            """, stderr: ""))

        // A release manager's approval completes the criteria: the server promotes, the receiver answers 200, the fix is released.
        let approved = try server.vouch(["approve", Self.key, "--comment", "VoiceOver users confirm it"], as: .token(rita))
        let approval = try #require(try server.json("status", Self.key)["approvals"]?.arrayValue?.first)
        let id = try #require(approval["id"]?.stringValue)
        #expect(approved == VouchRun(status: 0, stdout: """
            Fix tv-channel-selector-labels, revision 1: approved by rita, reference \(ending(id)).
            Standing: valid; it counts toward promotion.
            Comment: VoiceOver users confirm it
            See what the fix still needs with 'vouch status tv-channel-selector-labels'.

            """, stderr: ""))
        let deadline = Date().addingTimeInterval(10)
        var shown = try server.vouch("fix", "show", Self.key)
        while !shown.stdout.contains("\nState: released\n") && Date() < deadline {
            usleep(50_000)
            shown = try server.vouch("fix", "show", Self.key)
        }
        #expect(shown.stdout.contains("\nState: released\n"), "\(shown)")
        #expect(shown.stdout.contains("\nNext actions: pause, rollback\n"), "\(shown)")
        let types = receiver.wait(for: 2).map { $0.type ?? "" }
        #expect(types == ["fix.promoted", "fix.released"])
        #expect(receiver.requests.allSatisfy { $0.headers["webhook-id"]?.hasPrefix("msg_") == true && $0.headers["webhook-signature"]?.hasPrefix("v1,") == true })

        // Released: no "Missing: nothing" and "Ready to promote: no" that contradict each other, but what happened.
        let approvalLine = "  Approved by rita, reference \(ending(id)), on revision 1, recorded on \(ConsoleTime.say(approval["recorded_at"]?.stringValue)). "
            + "Standing: valid; it counts toward promotion. Comment: VoiceOver users confirm it."
        let criteriaLines = """
            Revision: 1
            Criteria met: 6 of 6
            Criterion minimum passing testers: met. 1 of 1 passing tester.
            Criterion required assistive technologies: met. 1 of 1 required assistive technologies covered.
              VoiceOver on iOS: 1 passing tester
            Criterion maximum blocking reports: met. 0 blocking reports (at most 0 allowed).
            Criterion minimum pass ratio: met. Pass ratio 1.00: 1 passed and 0 failed, can't tell not counted; 0.80 needed.
            Criterion time in testing before promotion: met. Revision 1 has been in testing for 0 seconds; none needed.
            Criterion required approvals: met. 1 of 1 valid approval.
            Approvals:
            \(approvalLine)
            """
        #expect(Self.zeroSoak(try server.vouch("status", Self.key)) == VouchRun(status: 0, stdout: """
            Fix: tv-channel-selector-labels
            State: released
            \(criteriaLines)
            Promotion: released to everyone

            """, stderr: ""))
        let json = try server.json("status", Self.key)
        #expect(json["criteria_met"] == .bool(true) && json["criteria"]?.arrayValue?.count == 6)
        #expect(json["promotion"] == .string("released to everyone") && json["ready_to_promote"] == .bool(false))

        // Paused after release, then rolled back: each says what happened and what comes next.
        #expect(try server.vouch(["fix", "pause", Self.key], as: .token(rita)).status == 0)
        #expect(Self.zeroSoak(try server.vouch("status", Self.key)) == VouchRun(status: 0, stdout: """
            Fix: tv-channel-selector-labels
            State: paused
            \(criteriaLines)
            Promotion: paused after its release: the flag is off for everyone until the fix is resumed; resume with 'vouch fix resume tv-channel-selector-labels'

            """, stderr: ""))
        #expect(try server.vouch(["fix", "resume", Self.key], as: .token(rita)).stdout == "Fix tv-channel-selector-labels is now released (revision 1).\n")
        #expect(try server.vouch(["fix", "rollback", Self.key, "--reason", "TalkBack regression"], as: .token(rita)).stdout
                == "Fix tv-channel-selector-labels is now rolled back (revision 1).\n")
        let rolledBack = try server.vouch("status", Self.key).stdout
        #expect(rolledBack.hasPrefix("Fix: tv-channel-selector-labels\nState: rolled back\n"), "\(rolledBack)")
        #expect(rolledBack.contains("\nCriterion time in testing before promotion: met. Revision 1 is not in testing; none needed.\n"), "\(rolledBack)")
        #expect(rolledBack.hasSuffix("""
            \nPromotion: rolled back: the flag is off for everyone until the fix is started again, as a new revision; \
            start again with 'vouch fix start tv-channel-selector-labels'\n
            """), "\(rolledBack)")
        #expect(!rolledBack.contains("Missing") && !rolledBack.contains("Ready to promote"))
    }

    /// A required webhook that cannot be reached fails the promotion: the status says so, and how to retry.
    @Test func failedPromotionSaysHowToRetry() throws {
        // Nothing listens on port 1 of loopback, so every attempt is refused at once.
        let server = try DaemonProcess(environment: DaemonProcess.promotionEnvironment)
        defer { server.stop() }
        #expect(try server.vouch("webhook", "add", "http://127.0.0.1:1/hooks/vouch", "--events", "fix.promoted", "--required").status == 0)
        let tester = try server.startedFixAndTester()
        #expect(try server.vouch(FeedbackCommandsTests.anaReport(tester)).status == 0)
        let rita = try server.token(role: "release_manager", name: "rita")
        #expect(try server.vouch(["approve", Self.key], as: .token(rita)).status == 0)
        // Three attempts a second apart (the test's retry schedule), then the delivery is dead and the promotion failed.
        let deadline = Date().addingTimeInterval(15)
        var state = ""
        repeat {
            usleep(100_000)
            state = try server.json("status", Self.key)["state"]?.stringValue ?? ""
        } while state != "promotion_failed" && Date() < deadline
        try #require(state == "promotion_failed")
        let status = try server.vouch("status", Self.key)
        #expect(status.stdout.contains("\nState: promotion failed\n"), "\(status)")
        #expect(status.stdout.hasSuffix("""
            \nPromotion: failed: a required webhook delivery was not accepted; retry with 'vouch fix retry-promotion tv-channel-selector-labels'\n
            """), "\(status)")
        #expect(!status.stdout.contains("Missing") && !status.stdout.contains("Ready to promote"))
        #expect(try server.json("status", Self.key)["promotion"] == .string("failed: a required webhook delivery was not accepted"))
        // The server's state conflict names the state; the CLI says it as words.
        let start = try server.vouch("fix", "start", Self.key)
        #expect(start.status == 65 && start.stderr.hasPrefix("Error: cannot start a fix in state promotion failed;"), "\(start)")
        let deliveries = try server.vouch("webhook", "deliveries").stdout
        #expect(deliveries.contains(": fix promoted event for webhook we_") && deliveries.contains(", required for promotion; dead, 3 attempts"), "\(deliveries)")
        let audit = try server.vouch("audit", "--fix", Self.key).stdout
        #expect(audit.contains(": vouchd recorded the failed promotion of fix tv-channel-selector-labels, state promoting to promotion failed, "
                               + "note: a required webhook delivery failed.\n"), "\(audit)")
    }

    @Test func rejectionBlocksUntilANewRevision() throws {
        let server = try DaemonProcess(environment: DaemonProcess.promotionEnvironment)
        defer { server.stop() }
        let tester = try server.startedFixAndTester()
        #expect(try server.vouch(FeedbackCommandsTests.anaReport(tester)).status == 0)
        let sam = try server.token(role: "release_manager", name: "sam")

        let rejected = try server.vouch(["reject", Self.key, "--comment", "Focus order is still wrong"], as: .token(sam))
        let approval = try #require(try server.json("status", Self.key)["approvals"]?.arrayValue?.first)
        let id = try #require(approval["id"]?.stringValue)
        #expect(rejected == VouchRun(status: 0, stdout: """
            Fix tv-channel-selector-labels, revision 1: rejected by sam, reference \(ending(id)).
            Standing: it blocks promotion until a new revision.
            Comment: Focus order is still wrong
            See what the fix still needs with 'vouch status tv-channel-selector-labels'.

            """, stderr: ""))
        let status = try server.vouch("status", Self.key).stdout
        for line in ["Criterion required approvals: not met. Rejected on revision 1.",
                     "Missing:\n  a new revision: sam rejected revision 1\nApprovals:",
                     "  Rejected by sam, reference \(ending(id)), on revision 1, recorded on \(ConsoleTime.say(approval["recorded_at"]?.stringValue)). Standing: it blocks promotion until a new revision. "
                        + "Comment: Focus order is still wrong.",
                     "Ready to promote: no"] {
            #expect(status.contains(line + "\n"), "missing '\(line)' in \(status)")
        }
        // retry-promotion is for a failed promotion; the server names the state.
        let retry = try server.vouch(["fix", "retry-promotion", Self.key], as: .token(sam))
        #expect(retry.status == 65)
        #expect(retry.stderr.hasPrefix("Error: cannot retry-promotion a fix in state testing"), "\(retry)")

        // A new revision leaves the rejection behind.
        #expect(try server.vouch("fix", "revise", Self.key, "--note", "build 413").status == 0)
        let revised = try server.vouch("status", Self.key).stdout
        #expect(revised.contains("\nCriterion required approvals: not met. 0 of 1 valid approval.\n"), "\(revised)")
        #expect(revised.contains("Standing: given for revision 1, not the current one; it no longer blocks promotion."), "\(revised)")
    }
}
