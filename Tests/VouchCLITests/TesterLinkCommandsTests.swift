import Foundation
import Testing
@testable import VouchCLI
import VouchJSON
import VouchTestSupport

/// Personal console links through the CLI against a live vouchd: made and printed once, listed without their
/// addresses, revoked; the printed address signs the tester in until it is revoked.
@Suite struct TesterLinkCommandsTests {
    /// What the console answers when the address is opened: 303 to the welcome page while the link works, 404 after.
    func open(_ address: String) throws -> HTTPTransport.Response {
        try HTTPTransport.curl().send(HTTPTransport.Request(method: "GET", url: address, headers: [], body: nil))
    }

    @Test func aLinkIsPrintedOnceListedWithoutItsAddressAndRevoked() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.addTester()

        let made = try server.vouch("tester", "link", tester, "--valid-for", "7d")
        #expect(made.status == 0 && made.stderr.isEmpty, "\(made)")
        let lines = made.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 5, "\(made)")
        let link = String(lines[0].dropFirst("Link ".count).prefix(18))
        #expect(lines[0] == "Link \(link) for tester \(ending(tester)) is created.")
        #expect(link.hasPrefix("l_"))
        #expect(lines[1].hasPrefix("Address: \(server.url)/console/link/"))
        let address = String(lines[1].dropFirst("Address: ".count))
        #expect(lines[3] == "The address is shown only this once: send it to the tester now, as you would send a password.")
        #expect(lines[4].isEmpty)

        let listed = try server.json("tester", "links", tester)
        let entry = try #require(listed["links"]?.arrayValue?.first)
        let expires = try #require(entry["expires_at"]?.stringValue)
        let created = try #require(entry["created_at"]?.stringValue)
        #expect(lines[2] == "Expires: \(ConsoleTime.say(expires))")
        // Seven days from creation, to the millisecond the server wrote.
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        #expect(try format.parse(expires).timeIntervalSince(try format.parse(created)) == 7 * 86_400)
        #expect(entry["url"] == nil, "the address is never listed")
        #expect(try server.vouch("tester", "links", tester) == VouchRun(status: 0, stdout: """
            \(link): active, expires on \(ConsoleTime.say(expires)). Created on \(ConsoleTime.say(created)) by admin.
            1 link.

            """, stderr: ""))

        #expect(try open(address).status == 200, "the printed address opens the page that signs the tester in")
        #expect(try server.vouch("tester", "unlink", tester, link) == VouchRun(status: 0, stdout: """
            Link \(ending(link)) of tester \(ending(tester)) is revoked: it opens nothing from now on.
            The tester's console sessions from that link have ended.

            """, stderr: ""))
        #expect(try open(address).status == 404)
        let revokedAt = try #require(try server.json("tester", "links", tester)["links"]?.arrayValue?.first?["revoked_at"]?.stringValue)
        #expect(try server.vouch("tester", "links", tester).stdout == "\(link): revoked on \(ConsoleTime.say(revokedAt)). Created on \(ConsoleTime.say(created)) by admin.\n1 link.\n")
        let again = try server.vouch("tester", "unlink", tester, link)
        #expect(again.status == 65)
        #expect(again.stderr == "Error: link \(link) was already revoked at \(ConsoleTime.say(revokedAt))\n", "\(again)")
    }

    @Test func withoutValidForTheServersDefaultApplies() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.addTester()
        let made = try server.json("tester", "link", tester)
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let expires = try format.parse(try #require(made["expires_at"]?.stringValue))
        let created = try format.parse(try #require(made["created_at"]?.stringValue))
        #expect(expires.timeIntervalSince(created) == 14 * 86_400)
        #expect(made["url"]?.stringValue?.hasPrefix(server.url + "/console/link/") == true)
        #expect(try server.vouch("tester", "links", "t_000000000000").status == 65, "an unknown tester is a 404")
    }

    @Test(arguments: ["0s", "59m", "91d", "soon"])
    func aValidityOutsideAnHourToNinetyDaysIsRefused(validFor: String) throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.addTester()
        let refused = try server.vouch("tester", "link", tester, "--valid-for", validFor)
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("Error: 1 field is not valid\n  valid for: "), "\(refused)")
        #expect(refused.stderr.hasSuffix(" (from 1h to 90d)\n"), "the message says what is allowed: \(refused)")
        #expect(try server.json("tester", "links", tester)["links"]?.arrayValue?.isEmpty == true)
    }

    @Test func onlyRolesThatManageTestersMayLinkThem() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try server.addTester()
        let maintainer = try server.token(role: "maintainer", name: "mia")
        #expect(try server.vouch("tester", "link", tester, as: .token(maintainer)).status == 0)
        let releaseManager = try server.token(role: "release_manager", name: "rita")
        for arguments in [["tester", "link", tester], ["tester", "links", tester]] {
            let refused = try server.vouch(arguments, as: .token(releaseManager))
            #expect(refused.status == 77, "\(arguments): \(refused)")
        }
        // A withdrawn tester gets no link.
        #expect(try server.vouch("tester", "withdraw", tester, "--yes").status == 0)
        let withdrawn = try server.vouch("tester", "link", tester)
        #expect(withdrawn.status == 65)
        #expect(withdrawn.stderr.contains("has withdrawn"), "\(withdrawn)")
    }

    @Test(arguments: [
        (["tester", "unlink", "t_a"], "Error: Missing expected argument '<link>'.", "vouch tester unlink <id> <link>"),
        (["tester", "unlink", "t_a", "l_a/b"], "Error: Invalid value 'l_a/b' for '<link>': an id is letters, digits and '_', such as l_4w9tedpdf8fce6h6.",
         "vouch tester unlink <id> <link>"),
        (["tester", "link"], "Error: Missing expected argument '<id>'.", "vouch tester link <id> [--valid-for <duration>]"),
        (["tester", "links", "t_a", "l_b"], "Error: Unexpected argument 'l_b'.", "vouch tester links <id>"),
    ])
    func usageErrors(_ arguments: [String], _ error: String, _ usage: String) throws {
        let run = try VouchRun.run(arguments, environment: ["VOUCH_URL": ConnectionGoldenTests.deadServer, "VOUCH_TOKEN": "vch_unused"])
        #expect(run == VouchRun(status: 64, stdout: "", stderr: """
            \(error)
            Usage: \(usage)
            See 'vouch \(arguments.prefix(2).joined(separator: " ")) --help'.

            """))
    }
}
