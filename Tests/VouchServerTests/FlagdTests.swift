import Foundation
import Testing
import VouchCodec
import VouchDomain
import VouchJSON
import VouchStore

/// `GET /flagd/v1/flags.json` and the definitions it serves (docs/flagd.md): each state's JSON exactly, the ETag and
/// 304, a change served at once, and who may read it.
@Suite(.serialized) struct FlagdTests {
    static let variants: JSONValue = .object(["true": .bool(true), "false": .bool(false)])
    static let inTargeted: JSONValue = .object(["in": .array([.object(["var": .string("targetingKey")]), .strings(["qa-device", "tester-1"])])])

    static func flag(_ defaultVariant: String, targeting: JSONValue? = nil, metadata: JSONObject) -> JSONValue {
        var flag: JSONObject = ["state": .string("ENABLED"), "variants": variants, "defaultVariant": .string(defaultVariant)]
        if let targeting { flag["targeting"] = targeting }
        flag["metadata"] = .object(metadata)
        return .object(flag)
    }

    static func rule(_ state: FixState, percentage: Int = 0, bucketing: Bucketing = .flagd, targets: Set<String> = ["tester-1", "qa-device"]) -> FlagRule {
        FlagRule(key: "player-captions", state: state, revision: 2, targetedKeys: targets, rolloutPercentage: percentage, bucketing: bucketing)
    }

    /// Off for everyone is `false` by default with no targeting, never `DISABLED`: flagd answers a disabled flag with
    /// the app's own default, and the kill switch must hold in an app whose default is on.
    @Test(arguments: [FixState.draft, .paused, .rolledBack, .abandoned])
    func offForEveryone(state: FixState) {
        #expect(FlagdDefinitions.flag(Self.rule(state)) == Self.flag("false", metadata: ["vouchState": .string(state.rawValue), "vouchRevision": .int(2)]))
    }

    @Test func releasedIsOnForEveryone() {
        #expect(FlagdDefinitions.flag(Self.rule(.released)) == Self.flag("true", metadata: ["vouchState": .string("released"), "vouchRevision": .int(2)]))
    }

    @Test(arguments: [FixState.testing, .promoting, .promotionFailed])
    func targetedKeysOnly(state: FixState) {
        let expected = Self.flag("false", targeting: .object(["if": .array([Self.inTargeted, .string("true"), .string("false")])]),
                                 metadata: ["vouchState": .string(state.rawValue), "vouchRevision": .int(2)])
        #expect(FlagdDefinitions.flag(Self.rule(state)) == expected)
        #expect(FlagdDefinitions.flag(Self.rule(state, targets: [])) == Self.flag("false", metadata: ["vouchState": .string(state.rawValue), "vouchRevision": .int(2)]))
    }

    @Test(arguments: [1, 10, 50, 99])
    func phasedRolloutIsFractionalWithIntegerWeights(percentage: Int) {
        let split: JSONValue = .object(["fractional": .array([.array([.string("true"), .int(percentage)]), .array([.string("false"), .int(100 - percentage)])])])
        let metadata: JSONObject = ["vouchState": .string("releasing"), "vouchRevision": .int(2), "vouchRolloutPercentage": .int(percentage),
                                    "vouchBucketing": .string("flagd")]
        let expected = Self.flag("false", targeting: .object(["if": .array([Self.inTargeted, .string("true"), split])]), metadata: metadata)
        #expect(FlagdDefinitions.flag(Self.rule(.releasing, percentage: percentage)) == expected)
        #expect(FlagdDefinitions.flag(Self.rule(.releasing, percentage: percentage, targets: [])) == Self.flag("false", targeting: split, metadata: metadata))
        let text = JSONWriter.string(FlagdDefinitions.flag(Self.rule(.releasing, percentage: percentage)))
        #expect(text.contains(#"["true",\#(percentage)],["false",\#(100 - percentage)]"#), "weights are written as integers: \(text)")
    }

    /// A rollout on Unleash's buckets: on for targeted keys only, marked, and listed.
    @Test func unleashRolloutIsTargetedOnlyAndMarked() {
        let rule = Self.rule(.releasing, percentage: 20, bucketing: .unleash)
        let expected = Self.flag("false", targeting: .object(["if": .array([Self.inTargeted, .string("true"), .string("false")])]),
                                 metadata: ["vouchState": .string("releasing"), "vouchRevision": .int(2), "vouchRolloutPercentage": .int(20),
                                            "vouchBucketing": .string("unleash"), "vouchExact": .bool(false)])
        #expect(FlagdDefinitions.flag(rule) == expected)
        #expect(FlagdDefinitions.notReproduced(rules: [rule, Self.rule(.releasing, percentage: 20), Self.rule(.released)]) == ["player-captions"])
    }

    @Test func documentHasTheSchemaAndFlagsInKeyOrder() {
        var second = Self.rule(.released)
        second.key = "a-first"
        let document = FlagdDefinitions.document(rules: [Self.rule(.draft), second])
        #expect(document["$schema"]?.stringValue == "https://flagd.dev/schema/v0/flags.json")
        guard case .object(let flags)? = document["flags"] else { Issue.record("no flags"); return }
        #expect(flags.keys == ["a-first", "player-captions"])
    }

    @Test func servedWithETagAnd304AndChangedAtOnce() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let sdk = try Self.flagdToken(server)
        let first = try server.call("GET", "/flagd/v1/flags.json", token: .some(sdk))
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "application/json")
        let etag = try #require(first.headers["etag"])
        #expect(etag.wholeMatch(of: /"[0-9a-f]{16}"/) != nil)
        #expect(first.json["flags"]?["tv-channel-selector-labels"]?["defaultVariant"]?.stringValue == "false")
        #expect(first.headers["vouch-configuration-revision"] != nil)

        let unchanged = try server.call("GET", "/flagd/v1/flags.json", token: .some(sdk), headers: [("If-None-Match", "\"0000000000000000\", W/\(etag)")])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        #expect(unchanged.headers["etag"] == etag)

        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["qa-device"]}"#)
        let changed = try server.call("GET", "/flagd/v1/flags.json", token: .some(sdk), headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.headers["etag"] != etag)
        let flag = changed.json["flags"]?["tv-channel-selector-labels"]
        #expect(flag?["metadata"]?["vouchState"]?.stringValue == "testing")
        #expect(flag?["targeting"]?["if"]?.arrayValue?.first?["in"]?.arrayValue?.last == .strings(["qa-device"]))
    }

    /// An sdk token made for flag definitions, as a flagd's sync uses.
    static func flagdToken(_ server: InProcessServer, name: String = "flagd-sync") throws -> String {
        let answer = try server.call("POST", "/v1/tokens", json: #"{"name":"\#(name)","role":"sdk","flag_definitions":true}"#)
        #expect(answer.status == 201)
        #expect(answer.json["flag_definitions"] == .bool(true))
        return try #require(answer.json["token"]?.stringValue)
    }

    /// The definitions list every targeted key: no token is 401, a tester's is 403, an sdk token's is 403 unless it was
    /// made for them (sdk tokens are built into apps, whence anyone can take them); staff roles may read them.
    @Test func whoMayRead() throws {
        let server = try InProcessServer()
        let testerID = try server.createTester()
        let testerToken = try #require(try server.call("POST", "/v1/tokens", json: #"{"name":"aiko-phone","role":"tester","tester":"\#(testerID)"}"#)
            .json["token"]?.stringValue)
        let anonymous = try server.call("GET", "/flagd/v1/flags.json", token: .some(nil))
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["www-authenticate"] == "Bearer realm=\"vouch\"")
        let tester = try server.call("GET", "/flagd/v1/flags.json", token: .some(testerToken))
        #expect(tester.status == 403)
        #expect(tester.json["detail"]?.stringValue?.contains("flagd") == true)
        #expect(try server.call("GET", "/flagd/v1/flags.json", token: .some("vch_" + String(repeating: "x", count: 40))).status == 401)
        let app = try server.call("GET", "/flagd/v1/flags.json", token: .some(try server.token(role: "sdk", name: "ios-app")))
        #expect(app.status == 403)
        #expect(app.json["detail"]?.stringValue == "this sdk token was not made for flag definitions, which list every targeted key; make one for "
            + "your flagd with 'vouch token create --role sdk --flag-definitions' (API: \"flag_definitions\": true) and never build it into an app")
        #expect(try server.call("GET", "/flagd/v1/flags.json", token: .some(try Self.flagdToken(server))).status == 200)
        for role in ["maintainer", "release_manager", "admin"] {
            #expect(try server.call("GET", "/flagd/v1/flags.json", token: .some(try server.token(role: role, name: "reader-\(role)"))).status == 200, "\(role)")
        }
        #expect(try server.call("POST", "/flagd/v1/flags.json").status == 405)
    }

    /// Only an sdk token is made for flag definitions: true on another role is a 422 naming the field, nothing made;
    /// false is what every token has anyway.
    @Test func flagDefinitionsOnlyForSdk() throws {
        let server = try InProcessServer()
        let testerID = try server.createTester()
        for body in [#"{"name":"mia","role":"maintainer","flag_definitions":true}"#, #"{"name":"root","role":"admin","flag_definitions":true}"#,
                     #"{"name":"aiko","role":"tester","tester":"\#(testerID)","flag_definitions":true}"#] {
            let refused = try server.call("POST", "/v1/tokens", json: body)
            #expect(refused.status == 422, "\(body)")
            let error = refused.json["errors"]?.arrayValue?.first { $0["field"]?.stringValue == "flag_definitions" }
            #expect(error?["message"]?.stringValue?.contains("only an sdk token") == true, "\(refused.text)")
        }
        #expect(try server.call("POST", "/v1/tokens", json: #"{"name":"string","role":"sdk","flag_definitions":"yes"}"#).status == 422)
        let listed = try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue ?? []
        #expect(!listed.contains { ["mia", "root", "string"].contains($0["name"]?.stringValue ?? "") })
        let staff = try server.call("POST", "/v1/tokens", json: #"{"name":"rita","role":"release_manager","flag_definitions":false}"#)
        #expect(staff.status == 201)
        #expect(staff.json["flag_definitions"] == .bool(false))
        let made = try FlagdTests.flagdToken(server)
        #expect(try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue?.contains {
            $0["name"]?.stringValue == "flagd-sync" && $0["flag_definitions"] == .bool(true)
        } == true)
        #expect(made.hasPrefix("vch_"))
    }
}

/// A rollout that was under way before Vouch bucketed as flagd does (here written to the store as the migration
/// leaves it): OFREP keeps its Unleash buckets, and the definitions serve it to its targeted keys only, marked.
@Suite struct FlagdLegacyRolloutTests {
    @Test func unleashRolloutIsServedToTargetedKeysOnlyAndMarked() throws {
        let server = try InProcessServer()
        var fix = Fix(key: try FixKey(validating: "tv-channel-selector-labels"), title: "Label channel logos", uiArea: "TV channel selector",
                      platforms: [.ios], author: "admin", state: .releasing, rolloutPercentage: 30, createdAt: Date(), updatedAt: Date())
        fix.rolloutBucketing = .unleash
        _ = try server.store.createFix(fix, by: "admin")
        // user-1's bucket for this flag is 30 by Unleash's bucketing and 6 by flagd's (the fixtures of VouchDomainTests).
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json["value"] == .bool(true))
        let flag = try server.call("GET", "/flagd/v1/flags.json").json["flags"]?["tv-channel-selector-labels"]
        #expect(flag?["metadata"]?["vouchExact"] == .bool(false))
        #expect(flag?["metadata"]?["vouchBucketing"]?.stringValue == "unleash")
        #expect(flag?["targeting"] == nil, "no targeted key: off for everyone in flagd, never on where Vouch is off")
        #expect(flag?["defaultVariant"]?.stringValue == "false")
    }
}
