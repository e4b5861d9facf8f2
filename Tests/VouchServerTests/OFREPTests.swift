import Foundation
import Testing
import VouchJSON

/// OFREP answers exactly as docs/contracts.md ("OFREP") and the OFREP OpenAPI file say.
@Suite(.serialized) struct OFREPTests {
    func prepared() throws -> InProcessServer {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        return server
    }

    @Test func draftIsDisabledForEveryone() throws {
        let server = try prepared()
        let answer = try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1")
        #expect(answer.status == 200)
        #expect(answer.json == .object([
            "key": .string("tv-channel-selector-labels"), "value": .bool(false), "reason": .string("DISABLED"), "variant": .string("off"),
            "metadata": .object(["revision": .int(1), "state": .string("draft")]),
        ]))
    }

    @Test func testingIsOnForTargetsOnly() throws {
        let server = try prepared()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["user-1"]}"#)
        let targeted = try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json
        #expect(targeted["value"] == .bool(true))
        #expect(targeted["reason"]?.stringValue == "TARGETING_MATCH")
        #expect(targeted["variant"]?.stringValue == "on")
        let other = try server.evaluate("tv-channel-selector-labels", targetingKey: "user-2").json
        #expect(other["value"] == .bool(false))
        #expect(other["reason"]?.stringValue == "DEFAULT")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/pause")
        let paused = try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json
        #expect(paused["value"] == .bool(false))
        #expect(paused["reason"]?.stringValue == "DISABLED")
        #expect(paused["metadata"]?["state"]?.stringValue == "paused")
    }

    /// Each answer says the configuration revision it was evaluated at, which grows with every flag change and never
    /// goes back (what a client behind several vouchd checks; docs/storage.md).
    @Test func answersSayTheirConfigurationRevision() throws {
        let server = try prepared()
        func revision() throws -> Int {
            let single = try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1")
            let bulk = try server.call("POST", "/ofrep/v1/evaluate/flags", json: #"{"context":{"targetingKey":"user-1"}}"#)
            let value = try #require(single.headers["vouch-configuration-revision"].flatMap { Int($0) })
            #expect(bulk.headers["vouch-configuration-revision"] == String(value))
            let metrics = try server.call("GET", "/metrics", token: .some(nil)).text
            #expect(metrics.contains("vouch_configuration_revision \(value)\n"))
            return value
        }
        let created = try revision()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let started = try revision()
        #expect(started > created)
        try server.call("POST", "/v1/tokens", json: #"{"name":"another-app","role":"sdk"}"#)
        #expect(try revision() == started, "a token changes no flag")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["user-1"]}"#)
        #expect(try revision() > started)
    }

    @Test func errorsFollowTheProtocol() throws {
        let server = try prepared()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let missing = try server.evaluate("no-such-flag", targetingKey: "user-1")
        #expect(missing.status == 404)
        #expect(missing.json["errorCode"]?.stringValue == "FLAG_NOT_FOUND")
        #expect(missing.json["key"]?.stringValue == "no-such-flag")
        let noKey = try server.evaluate("tv-channel-selector-labels", targetingKey: nil)
        #expect(noKey.status == 400)
        #expect(noKey.json["errorCode"]?.stringValue == "TARGETING_KEY_MISSING")
        let parse = try server.call("POST", "/ofrep/v1/evaluate/flags/tv-channel-selector-labels", json: "{not json")
        #expect(parse.status == 400)
        #expect(parse.json["errorCode"]?.stringValue == "PARSE_ERROR")
        let invalid = try server.call("POST", "/ofrep/v1/evaluate/flags/tv-channel-selector-labels", json: #"{"context":{"targetingKey":42}}"#)
        #expect(invalid.status == 400)
        #expect(invalid.json["errorCode"]?.stringValue == "INVALID_CONTEXT")
        let slash = try server.call("POST", "/ofrep/v1/evaluate/flags/a%2Fb", json: #"{"context":{"targetingKey":"u"}}"#)
        #expect(slash.status == 404)
        #expect(slash.json["errorCode"]?.stringValue == "FLAG_NOT_FOUND")
        let form = try server.call("POST", "/ofrep/v1/evaluate/flags/tv-channel-selector-labels", json: "a=b", contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 400)
        #expect(form.json["errorCode"]?.stringValue == "PARSE_ERROR")
        let notObject = try server.call("POST", "/ofrep/v1/evaluate/flags/tv-channel-selector-labels", json: #"{"context":"user-1"}"#)
        #expect(notObject.json["errorCode"]?.stringValue == "INVALID_CONTEXT")
    }

    /// A context of thousands of members is read in linear time; a name given twice is a parse error, not a choice.
    @Test func largeContextIsReadAndARepeatedNameRefused() throws {
        let server = try prepared()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["user-1"]}"#)
        let attributes = (1..<6_400).map { #""\#(String($0, radix: 36))":0"# }.joined(separator: ",")
        let large = try server.call("POST", "/ofrep/v1/evaluate/flags/tv-channel-selector-labels",
                                    json: #"{"context":{\#(attributes),"targetingKey":"user-1"}}"#)
        #expect(large.status == 200)
        #expect(large.json["reason"]?.stringValue == "TARGETING_MATCH")
        let repeated = try server.call("POST", "/ofrep/v1/evaluate/flags",
                                       json: #"{"context":{"targetingKey":"user-1",\#(attributes),"targetingKey":"user-2"}}"#)
        #expect(repeated.status == 400)
        #expect(repeated.json["errorCode"]?.stringValue == "PARSE_ERROR")
        #expect(repeated.json["errorDetails"]?.stringValue?.contains("member 'targetingKey' appears twice") == true)
    }

    @Test func unauthorizedAnswersHaveNoBody() throws {
        let server = try prepared()
        let anonymous = try server.call("POST", "/ofrep/v1/evaluate/flags/tv-channel-selector-labels", token: .some(nil), json: #"{"context":{"targetingKey":"u"}}"#)
        #expect(anonymous.status == 401)
        #expect(anonymous.body.isEmpty)
    }

    @Test func bulkCarriesEveryFlagWithETagAnd304() throws {
        let server = try prepared()
        try server.call("POST", "/v1/fixes", json: #"{"key":"settings-screen-labels","title":"T","ui_area":"Settings screen","platforms":["android"]}"#)
        try server.call("POST", "/v1/fixes/settings-screen-labels/start")
        let body = #"{"context":{"targetingKey":"user-1"}}"#
        let first = try server.call("POST", "/ofrep/v1/evaluate/flags", json: body)
        #expect(first.status == 200)
        let flags = try #require(first.json["flags"]?.arrayValue)
        #expect(flags.compactMap { $0["key"]?.stringValue } == ["settings-screen-labels", "tv-channel-selector-labels"])
        #expect(flags.compactMap { $0["reason"]?.stringValue } == ["DEFAULT", "DISABLED"])
        let etag = try #require(first.headers["etag"])
        let unchanged = try server.call("POST", "/ofrep/v1/evaluate/flags", json: body, headers: [("If-None-Match", etag)])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        try server.call("POST", "/v1/fixes/settings-screen-labels/targets", json: #"{"add":["user-1"]}"#)
        let changed = try server.call("POST", "/ofrep/v1/evaluate/flags", json: body, headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.headers["etag"] != etag)
        let noKey = try server.call("POST", "/ofrep/v1/evaluate/flags", json: #"{"context":{}}"#)
        #expect(noKey.json["flags"]?.arrayValue?.first?["errorCode"]?.stringValue == "TARGETING_KEY_MISSING")
    }

    @Test func snapshotSurvivesRestart() throws {
        let server = try prepared()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["user-1"]}"#)
        let reloaded = try VouchApplicationFactory.reopen(server)
        let outcome = try #require(reloaded.snapshots.snapshot.evaluate(flag: "tv-channel-selector-labels", targetingKey: "user-1"))
        #expect(outcome.value)
        #expect(outcome.reason == .targetingMatch)
    }
}
