import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// Testers, consent, enrollment, tester tokens, withdrawal and export over HTTP.
@Suite(.serialized) struct TesterRoutesTests {
    static let ana = #"""
        {"name":"Ana Example","contact":"ana@example.org","assistive_tech":["voiceover:ios:18.2",{"name":"braille_display","platform":"ios"}],
         "targeting_keys":["user-1","tablet-9"],"consent":{"version":"2026-11"}}
        """#

    @discardableResult
    func addTester(_ server: InProcessServer, body: String = TesterRoutesTests.ana) throws -> String {
        let answer = try server.call("POST", "/v1/testers", json: body)
        guard answer.status == 201, let id = answer.json["id"]?.stringValue else { throw DaemonProcess.DaemonStartFailure(log: answer.text) }
        return id
    }

    func startedFix(_ server: InProcessServer) throws {
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
    }

    @Test func createsAPseudonymousTesterWithConsent() throws {
        let server = try InProcessServer()
        let answer = try server.call("POST", "/v1/testers", json: Self.ana)
        #expect(answer.status == 201)
        let id = try #require(answer.json["id"]?.stringValue)
        #expect(id.hasPrefix("t_"))
        #expect(!id.lowercased().contains("ana"))
        #expect(answer.json["consent"]?["version"]?.stringValue == "2026-11")
        #expect(answer.json["consent"]?["recorded_by"]?.stringValue == "admin")
        #expect(answer.json["assistive_tech"]?.arrayValue?.count == 2)
        #expect(answer.json["status"]?.stringValue == "active")
        let audit = try server.call("GET", "/v1/audit").text
        #expect(!audit.contains("Ana Example"))
        #expect(!audit.contains("ana@example.org"))
        #expect(!audit.contains("voiceover"))
    }

    @Test func noConsentNoTester() throws {
        let server = try InProcessServer()
        let answer = try server.call("POST", "/v1/testers", json: #"{"name":"Ana","assistive_tech":["voiceover:ios"],"targeting_keys":["u"]}"#)
        #expect(answer.status == 422)
        #expect(answer.errorFields == ["consent"])
        let bad = try server.call("POST", "/v1/testers", json: #"{"name":"","assistive_tech":["voiceover:tv","x"],"targeting_keys":[],"consent":"v1","ssn":"1"}"#)
        #expect(bad.status == 422)
        #expect(Set(bad.errorFields) == ["name", "assistive_tech[0]", "assistive_tech[1]", "targeting_keys", "ssn"])
        #expect(try server.call("GET", "/v1/testers").json["testers"]?.arrayValue?.isEmpty == true)
    }

    @Test func enrollmentTurnsTheFlagOnAndWithdrawalOff() throws {
        let server = try InProcessServer()
        try startedFix(server)
        let id = try addTester(server)
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json["value"] == .bool(false))
        let enrolled = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        #expect(enrolled.status == 200)
        #expect(enrolled.json["added"] == .strings([id]))
        for key in ["user-1", "tablet-9"] {
            let answer = try server.evaluate("tv-channel-selector-labels", targetingKey: key).json
            #expect(answer["value"] == .bool(true))
            #expect(answer["reason"]?.stringValue == "TARGETING_MATCH")
        }
        // Changing the tester's keys moves the flag with them.
        try server.call("PATCH", "/v1/testers/\(id)", json: #"{"targeting_keys":["user-1"]}"#)
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "tablet-9").json["value"] == .bool(false))
        let withdrawn = try server.call("POST", "/v1/testers/\(id)/withdraw")
        #expect(withdrawn.status == 200)
        #expect(withdrawn.json["tester"]?["status"]?.stringValue == "withdrawn")
        #expect(withdrawn.json["tester"]?["name"] == .null)
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json["value"] == .bool(false))
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels/enrollments").json["enrollments"]?.arrayValue?.isEmpty == true)
        let again = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        #expect(again.status == 422)
        #expect(try server.call("PATCH", "/v1/testers/\(id)", json: #"{"name":"Back"}"#).status == 409)
        #expect(try server.call("PATCH", "/v1/testers/\(id)", json: #"{"assistive_tech":["voiceover:tv"]}"#).status == 409)
        let twice = try server.call("POST", "/v1/testers/\(id)/withdraw", json: #"{"purge_feedback":true}"#)
        #expect(twice.status == 409)
        #expect(twice.json["detail"]?.stringValue?.contains("already withdrew") == true)
    }

    @Test func enrollmentRefusesUnknownTestersAndUnenrolls() throws {
        let server = try InProcessServer()
        try startedFix(server)
        let id = try addTester(server)
        let unknown = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)","t_nobody"]}"#)
        #expect(unknown.status == 422)
        #expect(unknown.errorFields == ["testers[1]"])
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels/enrollments").json["enrollments"]?.arrayValue?.isEmpty == true)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        #expect(try server.call("DELETE", "/v1/fixes/tv-channel-selector-labels/enrollments/\(id)").status == 200)
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json["value"] == .bool(false))
        #expect(try server.call("DELETE", "/v1/fixes/tv-channel-selector-labels/enrollments/\(id)").status == 404)
    }

    @Test func testerTokenReachesOnlyItsOwnFixesAndData() throws {
        let server = try InProcessServer()
        try startedFix(server)
        try server.call("POST", "/v1/fixes", json: #"{"key":"other-fix","title":"T","ui_area":"Settings screen","platforms":["ios"]}"#)
        let id = try addTester(server)
        let other = try addTester(server, body: #"{"name":"Ben","assistive_tech":["talkback:android"],"targeting_keys":["u-2"],"consent":"2026-11"}"#)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        let created = try server.call("POST", "/v1/tokens", json: #"{"name":"ana-phone","role":"tester","tester":"\#(id)"}"#)
        #expect(created.status == 201)
        let token = try #require(created.json["token"]?.stringValue)
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels", token: token).status == 200)
        #expect(try server.call("GET", "/v1/fixes/other-fix", token: token).status == 403)
        #expect(try server.call("GET", "/v1/fixes", token: token).json["fixes"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == ["tv-channel-selector-labels"])
        #expect(try server.call("GET", "/v1/testers/\(id)", token: token).status == 200)
        #expect(try server.call("GET", "/v1/testers/\(other)", token: token).status == 403)
        #expect(try server.call("GET", "/v1/testers", token: token).status == 403)
        #expect(try server.call("GET", "/v1/audit", token: token).status == 403)
        #expect(try server.call("POST", "/v1/fixes", token: token, json: InProcessServer.channelSelectorFix).status == 403)
        #expect(try server.call("GET", "/v1/testers/\(id)/export", token: token).status == 200)
        // Withdrawing revokes the tester's own tokens.
        #expect(try server.call("POST", "/v1/testers/\(id)/withdraw", token: token).status == 200)
        #expect(try server.call("GET", "/v1/fixes", token: token).status == 401)
        let bad = try server.call("POST", "/v1/tokens", json: #"{"name":"x","role":"tester","tester":"\#(id)"}"#)
        #expect(bad.status == 422)
        #expect(bad.errorFields == ["tester"])
    }

    @Test func exportHoldsEverythingAboutTheTester() throws {
        let server = try InProcessServer()
        try startedFix(server)
        let id = try addTester(server)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: FeedbackRoutesTests.passing(id))
        let export = try server.call("GET", "/v1/testers/\(id)/export")
        #expect(export.status == 200)
        #expect(export.json["tester"]?["name"]?.stringValue == "Ana Example")
        #expect(export.json["tester"]?["contact"]?.stringValue == "ana@example.org")
        #expect(export.json["enrollments"]?.arrayValue?.first?["fix"]?.stringValue == "tv-channel-selector-labels")
        #expect(export.json["feedback"]?.arrayValue?.count == 1)
        #expect(export.headers["content-disposition"]?.contains(id) == true)
    }
}
