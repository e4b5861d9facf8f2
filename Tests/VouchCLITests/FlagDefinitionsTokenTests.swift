import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch token create --role sdk --flag-definitions`, against a live vouchd: only such a token reads the flag
/// definitions, which list every targeted key; an app's sdk token is refused with words that say how to make one.
@Suite struct FlagDefinitionsTokenTests {
    @Test func onlyATokenMadeForFlagdExports() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        _ = try server.startedFixAndTester()
        let made = try server.vouch("token", "create", "--name", "flagd-sync", "--role", "sdk", "--flag-definitions")
        #expect(made.status == 0, "\(made)")
        #expect(made.stdout.split(separator: "\n").contains("Flag definitions: yes, reads every targeted key, for a flagd"), "\(made)")
        let secret = try #require(made.stdout.split(separator: "\n").first { $0.hasPrefix("Secret: ") }?.dropFirst("Secret: ".count))
        let exported = try server.vouch("flags", "export", "--format", "flagd", as: .token(String(secret)))
        #expect(exported.status == 0, "\(exported)")
        #expect(try JSONParser.parse(exported.stdout)["flags"]?[DaemonProcess.fixKey] != nil)

        let listed = try server.vouch("token", "list")
        let line = try #require(listed.stdout.split(separator: "\n").first { $0.contains("flagd-sync") }, "\(listed)")
        #expect(line.contains(" Role: SDK. Flag definitions: yes, reads every targeted key, for a flagd. Created on "), "\(line)")
        let tokens = try server.json("token", "list")["tokens"]?.arrayValue ?? []
        #expect(tokens.first { $0["name"]?.stringValue == "flagd-sync" }?["flag_definitions"] == .bool(true))

        // An app's token, made as before, says nothing of it and is refused the definitions.
        let app = try server.json("token", "create", "--name", "ios-app", "--role", "sdk")
        #expect(app["flag_definitions"] == .bool(false))
        let refused = try server.vouch("flags", "export", "--format", "flagd", as: .token(try #require(app["token"]?.stringValue)))
        #expect(refused.status == 77, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("this sdk token was not made for flag definitions"), "\(refused)")
        #expect(refused.stderr.contains("vouch token create --role sdk --flag-definitions"), "\(refused)")
    }

    @Test func refusedOnAnyOtherRole() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let refused = try server.vouch("token", "create", "--name", "mia", "--role", "maintainer", "--flag-definitions")
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("flag definitions: only an sdk token"), "\(refused)")
        #expect(try server.vouch("token", "list").stdout.contains("mia") == false)
    }
}
