import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// Tokens against a live vouchd: the secret is printed once, a role that may not read is refused with 77,
/// and a revoked token is refused with 77 too.
@Suite struct TokenRoleTests {
    @Test func sdkTokenAndRevocation() throws {
        let server = try DaemonProcess()
        defer { server.stop() }

        let created = try server.vouch("token", "create", "--name", "ios-app", "--role", "sdk")
        #expect(created.status == 0, "\(created)")
        let lines = created.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(created)")
        #expect(lines[0].hasPrefix("Token tok_") && lines[0].hasSuffix(" is created for ios-app."))
        // Without --principal the token is issued to its name; the role in words.
        #expect(Array(lines[1...2]) == ["Principal: ios-app", "Role: SDK"])
        #expect(lines[3].hasPrefix("Secret: vch_"))
        #expect(lines[4].contains("will not be shown again"))
        let secret = String(lines[3].dropFirst("Secret: ".count))
        let id = String(lines[0].dropFirst("Token ".count).prefix { $0 != " " })

        let refused = try server.vouch("fix", "list", as: .token(secret))
        #expect(refused.status == 77)
        #expect(refused.stdout == "")
        #expect(refused.stderr.hasPrefix("Error: Not allowed: the role sdk may not do this;"), "\(refused)")
        #expect(refused.stderr.contains("--token or VOUCH_TOKEN"))
        #expect(!refused.stderr.contains(secret))

        // Any role may evaluate flags; an unknown flag is still the server's FLAG_NOT_FOUND.
        #expect(try server.vouch("eval", "no-such-fix", "--key", "user-1", as: .token(secret)).status == 65)

        let listed = try server.vouch("token", "list")
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("\(id): ios-app. Principal: ios-app. Role: SDK. Created "))
        #expect(listed.stdout.hasSuffix("2 tokens.\n"))
        #expect(!listed.stdout.contains("vch_"))

        #expect(try server.vouch("token", "revoke", id) == VouchRun(status: 0, stdout: "Token \(ending(id)) (ios-app) is revoked.\n", stderr: ""))
        let revoked = try server.vouch("eval", "no-such-fix", "--key", "user-1", as: .token(secret))
        #expect(revoked == VouchRun(status: 77, stdout: "", stderr: """
            Error: The server refused the token: it is unknown or has been revoked.
            Check --token or VOUCH_TOKEN.

            """))

        let audit = try server.vouch("audit", "--json")
        let actions = (try JSONParser.parse(audit.stdout)["events"]?.arrayValue ?? []).compactMap { $0["action"]?.stringValue }
        #expect(actions == ["token.create", "token.create", "token.revoke"])
    }

    /// `--principal` names the person or system a token is issued to, apart from the token's name; the server normalises it.
    @Test func principalApartFromTheName() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let created = try server.vouch("token", "create", "--name", "rita-laptop", "--principal", "Rita Example", "--role", "release_manager")
        let lines = created.stdout.split(separator: "\n").map(String.init)
        try #require(created.status == 0 && lines.count == 5, "\(created)")
        let id = String(lines[0].dropFirst("Token ".count).prefix { $0 != " " })
        #expect(lines[0] == "Token \(id) is created for rita-laptop.")
        #expect(Array(lines[1...2]) == ["Principal: rita example", "Role: release manager"])
        let tokens = try server.json("token", "list")["tokens"]?.arrayValue ?? []
        let token = try #require(tokens.first { $0["id"]?.stringValue == id })
        #expect(token["principal"] == .string("rita example") && token["name"] == .string("rita-laptop"))
        let createdAt = try #require(token["created_at"]?.stringValue)
        let listed = try server.vouch("token", "list").stdout.split(separator: "\n").map(String.init)
        #expect(listed.contains("\(id): rita-laptop. Principal: rita example. Role: release manager. Created on \(ConsoleTime.say(createdAt)) by admin."), "\(listed)")
        // A revoked token says so in its line.
        #expect(try server.vouch("token", "revoke", id).status == 0)
        let revokedAt = try #require(try server.json("token", "list")["tokens"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["revoked_at"]?.stringValue)
        #expect(try server.vouch("token", "list").stdout.split(separator: "\n").contains(
            "\(id): rita-laptop. Principal: rita example. Role: release manager. Revoked on \(ConsoleTime.say(revokedAt)). Created on \(ConsoleTime.say(createdAt)) by admin."))
    }

    @Test func repeatedUnknownTokensAreToldWhyAndHowLongToWait() throws {
        let server = try DaemonProcess(environment: ["VOUCHD_AUTH_MAX_FAILURES": "2", "VOUCHD_AUTH_FAILURE_WINDOW": "60s"])
        defer { server.stop() }
        for _ in 0..<2 { #expect(try server.vouch("fix", "list", as: .token("vch_wrong")).status == 77) }
        let limited = try server.vouch("fix", "list", as: .token("vch_wrong"))
        #expect(limited.status == 1)
        let lines = limited.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: Too many requests (status 429): too many requests with an unknown token came from this address; try again in 60 s.",
                "\(limited)")
        #expect(lines.count == 1)
        // OFREP's 429 has no body: the wait comes from Retry-After.
        let evaluation = try server.vouch("eval", "some-fix", "--key", "user-1", as: .admin)
        #expect(evaluation.stderr.hasPrefix("Error: Too many requests (status 429): the server is limiting this address; try again in "), "\(evaluation)")
    }

    @Test func paging() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        for index in 1...3 {
            let run = try server.vouch("fix", "create", "fix-\(index)", "--title", "Fix \(index)", "--ui-area", "Area \(index)", "--platform", "web")
            try #require(run.status == 0, "\(run)")
        }
        let page = try server.vouch("fix", "list", "--limit", "2")
        let lines = page.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(page)")
        #expect(lines[2] == "2 fixes.")
        #expect(lines[3].hasPrefix("More: run again with --all to list all fixes, or with --cursor "))
        let cursor = String(lines[3].dropFirst("More: run again with --all to list all fixes, or with --cursor ".count).prefix { $0 != " " })
        let next = try server.vouch("fix", "list", "--limit", "2", "--cursor", cursor)
        #expect(next.stdout == "fix-3: Fix 3. State draft, revision 1, UI area Area 3.\n1 fix.\n")
        let all = try server.vouch("fix", "list", "--limit=2", "--all")
        #expect(all.stdout.hasSuffix("3 fixes.\n"), "\(all)")
        let json = try JSONParser.parse(try server.vouch("fix", "list", "--limit", "1", "--all", "--json").stdout)
        #expect(json["fixes"]?.arrayValue?.count == 3)
        #expect(json["next_cursor"] == .null)
        #expect(try server.vouch("fix", "list", "--state", "testing").stdout == "No fixes.\n")
    }
}
