import Foundation
import Testing
@testable import VouchCLI
import VouchJSON
import VouchTestSupport

/// Invitations through the CLI against a live vouchd: made and printed once, listed without their addresses,
/// revoked; refused with the operator's settings named until they are configured.
@Suite struct TesterInvitationCommandsTests {
    static let operatorSettings = ["VOUCHD_OPERATOR_NAME": "Example Media Ltd", "VOUCHD_OPERATOR_CONTACT": "privacy@example.com"]

    @Test func anInvitationIsPrintedOnceListedWithoutItsAddressAndRevoked() throws {
        let server = try DaemonProcess(environment: TesterInvitationCommandsTests.operatorSettings)
        defer { server.stop() }
        let made = try server.vouch("tester", "invite", "--key", "user-8841", "--language", "ja", "--uses", "2", "--expires", "7d",
                                    "--name-hint", "Aiko, support ticket 4411")
        #expect(made.status == 0 && made.stderr.isEmpty, "\(made)")
        let lines = made.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 9, "\(made)")
        let invitation = String(lines[0].dropFirst("Invitation ".count).prefix(18))
        #expect(invitation.hasPrefix("i_"))
        #expect(lines[0] == "Invitation \(invitation) is created.")
        #expect(lines[1].hasPrefix("Address: \(server.url)/console/join/"))
        #expect(lines[2] == "Fixes she joins: none")
        #expect(lines[3] == "Panels she joins: none")
        #expect(lines[4] == "Language: ja")
        #expect(lines[5] == "Uses allowed: 2")
        #expect(lines[7] == "The address is shown only this once: send it to the person you invite now, as you would send a password.")
        let address = String(lines[1].dropFirst("Address: ".count))

        let listed = try server.vouch("tester", "invitations")
        #expect(listed.status == 0)
        #expect(listed.stdout.hasPrefix("\(invitation): active, used 0 of 2 times, expires on "), "\(listed)")
        #expect(listed.stdout.hasSuffix("by admin.\n1 invitation.\n"), "\(listed)")
        #expect(!listed.stdout.contains(address) && !listed.stdout.contains("Aiko"))

        #expect(try server.vouch("tester", "uninvite", invitation) == VouchRun(status: 0, stdout: """
            Invitation \(ending(invitation)) is revoked: its address opens nothing from now on.

            """, stderr: ""))
        #expect(try server.vouch("tester", "invitations").stdout.hasPrefix("\(invitation): revoked on "))
        #expect(try server.vouch("tester", "uninvite", invitation).status == 65)
    }

    @Test func withoutTheOperatorInvitationsAreRefusedWithTheSettingsNamed() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let refused = try server.vouch("tester", "invite")
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("operator.name and operator.contact"), "\(refused)")
    }

    @Test func badValuesAreRefusedBeforeAnythingIsSent() throws {
        let server = try DaemonProcess(environment: TesterInvitationCommandsTests.operatorSettings)
        defer { server.stop() }
        let language = try server.vouch("tester", "invite", "--language", "fr")
        #expect(language.status == 64, "\(language)")
        #expect(language.stderr.contains("--language"), "\(language)")
        let uses = try server.vouch("tester", "invite", "--uses", "0")
        #expect(uses.status == 64, "\(uses)")
        let expires = try server.vouch("tester", "invite", "--expires", "91d")
        #expect(expires.status == 65, "\(expires)")
        #expect(expires.stderr.contains("expires in: is too long: at most 90d"), "\(expires)")
        #expect(try server.json("tester", "invitations")["invitations"]?.arrayValue?.isEmpty == true)
    }
}
