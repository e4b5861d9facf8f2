import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// Panels through the CLI against a live vouchd: made, listed, shown, changed, enrolled in a fix with `enroll --panel`
/// (never a tester who withdrew), named by an invitation, and deleted.
@Suite struct PanelCommandsTests {
    static let key = DaemonProcess.fixKey

    @Test func aPanelIsMadeFilledEnrolledAndDeleted() throws {
        let server = try DaemonProcess(environment: TesterInvitationCommandsTests.operatorSettings)
        defer { server.stop() }
        let ana = try server.startedFixAndTester(enrolled: false)
        let ben = try server.addTester(name: "Ben Example", keys: ["user-2"])
        let gone = try server.addTester(name: "Gone Example", keys: ["user-3"])

        let created = try server.vouch("panel", "create", "--name", "VoiceOver on iOS", "--description", "iPhone users")
        #expect(created.status == 0 && created.stderr.isEmpty, "\(created)")
        let panel = String(created.stdout.dropFirst("Panel ".count).prefix(14))
        #expect(created.stdout == """
            Panel \(panel) is created: VoiceOver on iOS.
            Next: add testers with 'vouch panel add \(panel) <tester>'.

            """)
        let twice = try server.vouch("panel", "create", "--name", "voiceover on iOS")
        #expect(twice.status == 65 && twice.stderr.contains("already called 'VoiceOver on iOS'"), "\(twice)")

        #expect(try server.vouch("panel", "add", panel, ana, ben, gone) == VouchRun(status: 0, stdout: """
            Added: tester \(ending(ana)), tester \(ending(ben)), tester \(ending(gone))
            Panel \(panel) now has 3 testers.

            """, stderr: ""))
        #expect(try server.vouch("panel", "add", panel, ana).stdout.hasPrefix("Added: none; every tester given was in the panel already\n"))
        #expect(try server.vouch("panel", "list") == VouchRun(status: 0, stdout: "\(panel): VoiceOver on iOS, 3 testers.\n1 panel.\n", stderr: ""))
        let shown = try server.json("panel", "show", panel)
        let createdAt = try #require(shown["created_at"]?.stringValue)
        let addedAt = try #require(shown["members"]?.arrayValue?.first?["added_at"]?.stringValue)
        let members = [ana, ben, gone].sorted().map { "\($0): added on \(ConsoleTime.say(addedAt)) by admin." }
        #expect(try server.vouch("panel", "show", panel) == VouchRun(status: 0, stdout: """
            Id: \(panel)
            Name: VoiceOver on iOS
            Description: iPhone users
            Created: \(ConsoleTime.say(createdAt)) by admin
            Testers: 3
            \(members.joined(separator: "\n"))

            """, stderr: ""))

        // Enrolling the panel enrolls who is in it now, never a tester who withdrew.
        #expect(try server.vouch("tester", "withdraw", gone, "--yes").status == 0)
        let enrolled = try server.vouch("enroll", Self.key, "--panel", panel)
        #expect(enrolled.status == 0, "\(enrolled)")
        #expect(enrolled.stdout == """
            Enrolled: \([ana, ben].sorted().map { "tester " + ending($0) }.joined(separator: ", "))
            Fix tv-channel-selector-labels now has 2 enrolled testers.

            """)
        let unknown = try server.vouch("enroll", Self.key, "--panel", "p_nobody")
        #expect(unknown.status == 65 && unknown.stderr.contains("no panel 'p_nobody'"), "\(unknown)")

        let invited = try server.vouch("tester", "invite", "--panel", panel)
        #expect(invited.status == 0 && invited.stdout.contains("\nPanels she joins: \(panel)\n"), "\(invited)")
        #expect(try server.vouch("tester", "invitations").stdout.contains(". Panels: \(panel). "))

        #expect(try server.vouch("panel", "remove", panel, ben) == VouchRun(status: 0, stdout: """
            Removed: tester \(ending(ben))
            Panel \(panel) now has 1 tester.

            """, stderr: ""))
        #expect(try server.vouch("panel", "remove", panel, ben).status == 65)
        #expect(try server.vouch("panel", "delete", panel) == VouchRun(status: 0, stdout: """
            Panel \(panel) (VoiceOver on iOS) is deleted; its testers stay.

            """, stderr: ""))
        #expect(try server.vouch("panel", "list").stdout == "No panels.\n")
        #expect(try server.json("enroll", Self.key, "--list")["enrollments"]?.arrayValue?.count == 2, "its enrollments stay")
    }

    @Test func aReleaseManagerSeesNoPanels() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let token = try server.token(role: "release_manager", name: "rita")
        let refused = try server.vouch("panel", "list", as: .token(token))
        #expect(refused.status == 77, "\(refused)")
    }
}
