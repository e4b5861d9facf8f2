import Foundation
import Testing
import VouchDomain
import VouchJSON
@testable import VouchServer

/// Web fixes are verified with the web's screen readers, each together with a browser.
@Suite(.serialized) struct WebFeedbackTests {
    static let key = "web-checkout-labels"

    func webFix(_ server: InProcessServer) throws -> String {
        #expect(try server.call("POST", "/v1/fixes", json: #"{"key":"\#(Self.key)","title":"Label the checkout fields","ui_area":"Checkout form","platforms":["web"]}"#).status == 201)
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        let tester = #"{"name":"Noor","assistive_tech":["nvda:web:2024.4"],"targeting_keys":["web-user-1"],"consent":"2026-11"}"#
        let id = try #require(try server.call("POST", "/v1/testers", json: tester).json["id"]?.stringValue)
        try server.call("POST", "/v1/fixes/\(Self.key)/enrollments", json: #"{"testers":["\#(id)"]}"#)
        return id
    }

    static func report(_ tester: String, platform: String = "web", technology: String = "nvda", browser: String? = "firefox") -> String {
        let browserFields = browser.map { #","browser":"\#($0)","browser_version":"133""# } ?? ""
        return #"{"tester":"\#(tester)","verdict":"passed","task_outcome":"completed_independently","severity":"none","platform":"\#(platform)","os_version":"Windows 11","app_build":"web-2026.11.30","assistive_tech":"\#(technology)"\#(browserFields)}"#
    }

    @Test func webFeedbackNamesItsBrowserAndOtherPlatformsHaveNone() throws {
        let server = try InProcessServer()
        let tester = try webFix(server)
        let missing = try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: Self.report(tester, browser: nil))
        #expect(missing.status == 422 && missing.errorFields == ["browser"])
        #expect(missing.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("chrome, edge, firefox, safari, samsung_internet, other") == true)
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: Self.report(tester, browser: "netscape")).errorFields == ["browser"])
        let recorded = try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: Self.report(tester))
        #expect(recorded.status == 201)
        #expect(recorded.json["browser"]?.stringValue == "firefox" && recorded.json["browser_version"]?.stringValue == "133")
        let summary = try server.call("GET", "/v1/fixes/\(Self.key)/feedback/summary").json
        #expect(summary["by_browser"]?["firefox"]?["passed"]?.intValue == 1)
        #expect(summary["by_assistive_tech"]?["nvda"]?["passed"]?.intValue == 1)
        #expect(summary["latest"]?.arrayValue?.first?["browser"]?.stringValue == "firefox")

        // An iOS record with a browser is refused: the field is for the web only.
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(tester)"]}"#)
        let ios = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.report(tester, platform: "ios", technology: "voiceover"))
        #expect(ios.status == 422 && ios.errorFields == ["browser"])
    }

    /// Default criteria: a web fix needs a passing NVDA tester, and neither VoiceOver nor TalkBack.
    @Test func aWebFixIsPromotedOnNVDAEvidenceWithDefaultTechnologies() throws {
        let server = try InProcessServer(settings: InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 1, minSoakSeconds: 0)))
        let tester = try webFix(server)
        let before = try server.call("GET", "/v1/fixes/\(Self.key)/status").json
        let technologies = before["criteria"]?.arrayValue?.first { $0["name"]?.stringValue == "required_assistive_tech" }
        #expect(technologies?["details"] == .strings(["NVDA on the web: no passing tester yet"]))
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: Self.report(tester)).status == 201)
        let manager = try server.token(role: "release_manager", name: "rita")
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/approvals", token: manager, json: #"{"decision":"approve"}"#).status == 201)
        let deadline = Date().addingTimeInterval(5)
        var state = ""
        while Date() < deadline, state != "released" {
            state = try server.call("GET", "/v1/fixes/\(Self.key)").json["state"]?.stringValue ?? ""
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(state == "released")
    }
}
