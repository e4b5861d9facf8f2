import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch feedback submit` on a real pseudo-terminal: the missing fields are asked one per line, answered by
/// number or by name, a wrong answer is explained and asked again, the read-back says every value in words, and
/// nothing is sent before a yes.
@Suite struct InteractiveFeedbackTests {
    static let key = DaemonProcess.fixKey

    @Test func asksForWhatIsMissingThenSends() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.startedFixAndTester()
        let session = try TerminalSession(["feedback", "submit", Self.key, "--os-version", "18.2", "--app-build", "5.4.1 (412)", "--heard", "NHK, button, selected"],
                                          environment: server.environment())
        try session.expect("Tester id, such as t_4w9tedpdf8fc: ")
        try session.type("t_a/b")
        try session.expect("That is not a tester id: a tester id is letters, digits and '_', such as t_4w9tedpdf8fc.\nTester id, such as t_4w9tedpdf8fc: ")
        try session.type(tester)
        // Choices are offered in words; the number, the words or the API's name are accepted.
        try session.expect("Verdict? 1 passed, 2 failed, 3 can't tell: ")
        try session.type("great")
        try session.expect("""
            'great' is not one of the choices. Answer with a number from 1 to 3, or in words: passed, failed, can't tell.
            Verdict? 1 passed, 2 failed, 3 can't tell: 
            """)
        try session.type("1")
        try session.expect("Task outcome? 1 completed independently, 2 completed with a workaround, 3 completed with assistance, 4 not completed: ")
        try session.type("Completed-With-Workaround")
        try session.expect("Severity? 1 none, 2 minor, 3 moderate, 4 serious, 5 critical: ")
        try session.type("")
        try session.expect("An answer is needed. Answer with a number from 1 to 5, or in words: none, minor, moderate, serious, critical.\nSeverity? ")
        try session.type("2")
        try session.expect("Platform? 1 iOS, 2 Android, 3 web: ")
        try session.type("ios")
        // The platform's technologies only, a group a line.
        try session.expect("""
            Assistive technology on iOS:
            Screen reader: 1 VoiceOver
            Switch and voice control: 2 Switch Control, 3 Voice Control
            Vision: 4 braille display, 5 screen magnifier, 6 large text
            Or: 7 other assistive technology
            Assistive technology on iOS? A number from 1 to 7: 
            """)
        try session.type("switch control")
        // What was heard was given; whether anything else broke was not, so it is asked, as the web console asks it.
        try session.expect("Did anything else stop working while the fix was on? 1 yes, 2 no: ")
        try session.type("2")
        try session.expect("Comment (optional, press Enter to skip): ")
        try session.type("Some issues, but usable")
        try session.expect("Send this feedback? (yes/no): ")
        #expect(session.transcript.hasSuffix("""
            Comment (optional, press Enter to skip): Some issues, but usable
            Feedback to send:
            Fix: tv-channel-selector-labels
            Tester: \(tester)
            Verdict: passed
            Task outcome: completed with a workaround
            Severity: minor
            Platform: iOS
            OS version: 18.2
            App build: 5.4.1 (412)
            Assistive technology: Switch Control
            Heard: NHK, button, selected
            Regression: no
            Comment: Some issues, but usable
            Send this feedback? (yes/no): 
            """), "\(session.transcript)")
        try session.type("maybe")
        try session.expect("Answer yes or no.\nSend this feedback? (yes/no): ")
        try session.type("yes")
        let finished = try session.expect("severity minor.\n")
        #expect(finished.hasPrefix("yes\nFeedback is recorded for fix tv-channel-selector-labels, revision 1, reference ending ")
                && finished.contains(": tester \(ending(tester)), verdict passed"),
                "\(finished)")
        #expect(try session.waitForExit() == 0)
        // Plain lines only: no escape sequences for colour or cursor movement.
        #expect(!session.transcript.contains("\u{1B}"))

        let records = try #require(try server.json("feedback", "list", Self.key)["feedback"]?.arrayValue)
        try #require(records.count == 1)
        let record = records[0]
        #expect(record["tester"]?.stringValue == tester)
        #expect(record["verdict"]?.stringValue == "passed")
        #expect(record["task_outcome"]?.stringValue == "completed_with_workaround")
        #expect(record["severity"]?.stringValue == "minor")
        #expect(record["assistive_tech"]?.stringValue == "switch_control")
        #expect(record["regression"]?.boolValue == false)
        #expect(record["comment"]?.stringValue == "Some issues, but usable")
        #expect(record["heard"]?.stringValue == "NHK, button, selected")
        #expect(record["channel"]?.stringValue == "cli")
    }

    @Test func noSendsNothing() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.startedFixAndTester()
        let session = try TerminalSession(["feedback", "submit", Self.key, "--tester", tester, "--verdict", "failed", "--task-outcome", "not_completed",
                                           "--platform", "ios", "--os-version", "18.2", "--app-build", "413", "--assistive-tech", "voiceover", "--comment", "Cannot pick NHK"],
                                          environment: server.environment())
        // Only the missing field is asked; a failed verdict cannot have a minor problem.
        try session.expect("Severity? 1 none, 2 minor, 3 moderate, 4 serious, 5 critical: ")
        try session.type("minor")
        try session.expect("A failed verdict needs severity moderate, serious or critical.\nSeverity? ")
        try session.type("serious")
        try session.expect("What did VoiceOver say, word for word? (optional, press Enter to skip): ")
        try session.type("")
        try session.expect("Did anything else stop working while the fix was on? 1 yes, 2 no: ")
        try session.type("no")
        // The comment was given, so it is not asked for.
        try session.expect("Comment: Cannot pick NHK\nSend this feedback? (yes/no): ")
        try session.type("no")
        try session.expect("Not sent.\n")
        #expect(try session.waitForExit() == 1)
        #expect(!session.transcript.contains("Comment (optional"))
        #expect(try server.vouch("feedback", "list", Self.key).stdout == "No feedback records.\n")
    }

    /// The OS version is asked as a number, after the platform, so its name is not said twice; what the screen reader said
    /// and a regression are asked, and the read-back says what was answered.
    @Test func asksTheVersionNumberWhatWasHeardAndAboutRegressions() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.startedFixAndTester()
        let session = try TerminalSession(["feedback", "submit", Self.key, "--tester", tester, "--verdict", "failed", "--task-outcome", "not_completed",
                                           "--severity", "serious", "--app-build", "413"], environment: server.environment())
        try session.expect("Platform? 1 iOS, 2 Android, 3 web: ")
        try session.type("Android")
        try session.expect("Android version, the number only, such as 15: ")
        try session.type("15")
        try session.expect("""
            Assistive technology on Android:
            Screen reader: 1 TalkBack
            Switch and voice control: 2 Switch Access, 3 Voice Access
            Vision: 4 braille display, 5 screen magnifier, 6 large text
            Or: 7 other assistive technology
            Assistive technology on Android? A number from 1 to 7: 
            """)
        try session.type("talkback")
        try session.expect("What did TalkBack say, word for word? (optional, press Enter to skip): ")
        try session.type("Channel, button")
        try session.expect("Did anything else stop working while the fix was on? 1 yes, 2 no: ")
        try session.type("1")
        try session.expect("Comment (optional, press Enter to skip): ")
        try session.type("")
        try session.expect("""
            Feedback to send:
            Fix: tv-channel-selector-labels
            Tester: \(tester)
            Verdict: failed
            Task outcome: not completed
            Severity: serious
            Platform: Android
            OS version: 15
            App build: 413
            Assistive technology: TalkBack
            Heard: Channel, button
            Regression: yes
            Comment: none
            Send this feedback? (yes/no): 
            """)
        try session.type("no")
        try session.expect("Not sent.\n")
        #expect(try session.waitForExit() == 1)
    }
}
