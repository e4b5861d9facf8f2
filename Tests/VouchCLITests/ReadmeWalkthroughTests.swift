import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// The README's walkthrough with the default criteria, only the soak shortened: an iOS-only fix, two VoiceOver
/// testers passing, one release manager's approval, and the fix reaches everyone. It once waited for TalkBack forever.
@Suite struct ReadmeWalkthroughTests {
    static let key = DaemonProcess.fixKey

    @Test func theSeedsStoryPromotesWithTheDefaultCriteriaButTheSoak() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let aiko = try server.startedFixAndTester()
        let bo = try server.addTester(name: "Bo", technology: "voiceover:ios:18.1", keys: ["user-7"])
        try #require(try server.vouch("enroll", Self.key, bo).status == 0)
        for tester in [aiko, bo] {
            let sent = try server.vouch("feedback", "submit", Self.key, "--tester", tester, "--verdict", "passed", "--task-outcome", "completed_independently",
                                        "--severity", "none", "--platform", "ios", "--os-version", "18.2", "--app-build", "5.4.1 (412)",
                                        "--assistive-tech", "voiceover")
            try #require(sent.status == 0, "\(sent)")
        }
        let waiting = try server.vouch("status", Self.key)
        #expect(waiting.stdout.contains("VoiceOver on iOS: 2 passing testers"), "\(waiting)")
        #expect(!waiting.stdout.contains("TalkBack"), "an iOS-only fix must not mention TalkBack: \(waiting)")
        try #require(try server.vouch("fix", "criteria", Self.key, "--min-soak", "0").status == 0)
        let created = try server.json("token", "create", "--name", "rita laptop", "--role", "release_manager")
        let rita = try #require(created["token"]?.stringValue)
        let approved = try server.vouch("approve", Self.key, "--comment", "VoiceOver users confirm it", as: .token(rita))
        #expect(approved.status == 0, "\(approved)")
        var state = ""
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, state != "released" {
            state = try server.json("fix", "show", Self.key)["state"]?.stringValue ?? ""
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(state == "released")
        let everyone = try server.vouch("eval", Self.key, "--key", "someone-else")
        #expect(everyone.stdout.lowercased().contains("static"), "\(everyone)")
    }
}
