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
        let sdk = try server.token(role: "sdk")
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

    /// The definitions list every targeted key: no token is 401, a tester's is 403; sdk and staff roles may read them.
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
        for role in ["sdk", "maintainer", "release_manager", "admin"] {
            #expect(try server.call("GET", "/flagd/v1/flags.json", token: .some(try server.token(role: role, name: "reader-\(role)"))).status == 200, "\(role)")
        }
        #expect(try server.call("POST", "/flagd/v1/flags.json").status == 405)
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
