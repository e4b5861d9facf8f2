import Testing
import VouchTestSupport

/// The console's token form offers flag definitions for an sdk token, with a hint that says what they expose, and
/// its list says in words which tokens were made for them (docs/flagd.md, "Tokens for flagd").
@Suite struct ConsoleFlagDefinitionsTests {
    @Test func anSdkTokenForFlagdIsMadeAndListedSo() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let form = try browser.get("/console/tokens/new")
        #expect(form.html.contains("Flag definitions (only for the role sdk)"))
        #expect(form.html.contains("Made for a flagd: may read every flag definition"))
        #expect(form.html.contains("The definitions list every targeted account, so only a flagd that syncs from Vouch needs this."))
        let csrf = try #require(form.csrf)
        let answer = try browser.post("/console/tokens/new", [("csrf", csrf), ("name", "flagd-sync"), ("role", "sdk"), ("tester", ""),
                                                              ("principal", ""), ("flag_definitions", "true")])
        #expect(answer.status == 303)
        let secret = try #require(ConsoleAdminTests.secret(in: try browser.follow(answer).html, prefix: "vch_"))
        #expect(try server.call("GET", "/flagd/v1/flags.json", token: .some(secret)).status == 200)
        let app = try browser.post("/console/tokens/new", [("csrf", csrf), ("name", "ios-app"), ("role", "sdk"), ("tester", ""), ("principal", "")])
        let appSecret = try #require(ConsoleAdminTests.secret(in: try browser.follow(app).html, prefix: "vch_"))
        #expect(try server.call("GET", "/flagd/v1/flags.json", token: .some(appSecret)).status == 403)
        let list = try browser.get("/console/tokens").html
        #expect(list.components(separatedBy: "Flag definitions: reads every targeted account, for a flagd").count == 2, "once: flagd-sync's")
    }

    @Test func anotherRoleIsRefusedAndTheChoiceKept() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let csrf = try #require(try browser.get("/console/tokens/new").csrf)
        let refused = try browser.post("/console/tokens/new", [("csrf", csrf), ("name", "mia"), ("role", "maintainer"), ("tester", ""),
                                                               ("principal", ""), ("flag_definitions", "true")])
        #expect(refused.status == 422)
        #expect(refused.html.contains("Flag definitions (only for the role sdk): only an sdk token is made for flag definitions"), "\(refused.html)")
        #expect(refused.html.contains("value=\"true\" checked"))
        #expect(try server.store.tokens(after: nil, limit: 10).count == 1, "only the admin token")
    }
}
