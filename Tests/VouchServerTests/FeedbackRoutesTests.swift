import Foundation
import Testing
import VouchJSON

@Suite(.serialized) struct FeedbackRoutesTests {
    static func passing(_ tester: String, comment: String = "Some issues, but usable") -> String {
        #"""
        {"tester":"\#(tester)","verdict":"passed","task_outcome":"completed_with_workaround","severity":"minor","platform":"ios",
         "os_version":"18.2","app_build":"5.4.1 (412)","assistive_tech":"voiceover","at_version":"18.2","name_announced":"yes",
         "role_announced":"yes","state_announced":"no","focus_order":"yes","heard":"NHK, button, selected","wcag":["4.1.2"],
         "comment":"\#(comment)"}
        """#
    }

    /// A started fix with one enrolled tester; returns the tester id.
    func prepared(_ server: InProcessServer) throws -> String {
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let tester = try server.call("POST", "/v1/testers", json: TesterRoutesTests.ana).json["id"]?.stringValue ?? ""
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(tester)"]}"#)
        return tester
    }

    @Test func acceptsAValidRecordOnTheCurrentRevision() throws {
        let server = try InProcessServer()
        let tester = try prepared(server)
        let answer = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.passing(tester))
        #expect(answer.status == 201)
        #expect(answer.json["id"]?.stringValue?.hasPrefix("fb_") == true)
        #expect(answer.json["revision"]?.intValue == 1)
        #expect(answer.json["tester"]?.stringValue == tester)
        #expect(answer.json["channel"]?.stringValue == "http")
        #expect(answer.json["recorded_by"]?.stringValue == "admin")
        #expect(answer.json["heard"]?.stringValue == "NHK, button, selected")
    }

    /// The platform is its own field, so an OS version that repeats it is stored as the number alone, as the console asks.
    @Test func storesTheOSVersionWithoutARepeatedPlatformName() throws {
        let server = try InProcessServer()
        let tester = try prepared(server)
        let answer = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback",
                                     json: Self.passing(tester).replacingOccurrences(of: #""os_version":"18.2""#, with: #""os_version":"iOS 18.2""#))
        #expect(answer.status == 201)
        #expect(answer.json["os_version"]?.stringValue == "18.2")
    }

    @Test func validatesEveryField() throws {
        let server = try InProcessServer()
        let tester = try prepared(server)
        let body = #"""
            {"tester":"\#(tester)","verdict":"failed","task_outcome":"gave_up","severity":"minor","platform":"tv","os_version":"",
             "assistive_tech":"screen_reader","name_announced":"maybe","regression":"yes","wcag":["4.1.1"],"comment":"\#(String(repeating: "x", count: 4_001))","mood":1}
            """#
        let answer = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: body)
        #expect(answer.status == 422)
        let fields = Set(answer.errorFields)
        for field in ["task_outcome", "platform", "os_version", "app_build", "assistive_tech", "name_announced", "regression", "wcag[0]", "comment", "mood"] {
            #expect(fields.contains(field), "missing \(field) in \(fields)")
        }
        let failedMinor = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback",
                                          json: Self.passing(tester).replacingOccurrences(of: "\"passed\"", with: "\"failed\""))
        #expect(failedMinor.status == 422)
        #expect(failedMinor.errorFields == ["severity"])
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback").json["feedback"]?.arrayValue?.isEmpty == true)
    }

    @Test func refusesWhenTheFixTakesNoFeedbackOrTheTesterIsNotEnrolled() throws {
        let server = try InProcessServer()
        let tester = try prepared(server)
        try server.call("POST", "/v1/fixes", json: #"{"key":"draft-fix","title":"T","ui_area":"A","platforms":["ios"]}"#)
        let draft = try server.call("POST", "/v1/fixes/draft-fix/feedback", json: Self.passing(tester))
        #expect(draft.status == 409)
        #expect(draft.json["detail"]?.stringValue?.contains("draft") == true)
        try server.call("POST", "/v1/fixes/draft-fix/start")
        let notEnrolled = try server.call("POST", "/v1/fixes/draft-fix/feedback", json: Self.passing(tester))
        #expect(notEnrolled.status == 409)
        #expect(notEnrolled.json["detail"]?.stringValue?.contains("not enrolled") == true)
        let unknown = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.passing("t_nobody"))
        #expect(unknown.status == 422)
        #expect(unknown.errorFields == ["tester"])
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/pause")
        #expect(try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.passing(tester)).status == 409)
    }

    @Test func idempotencyKeyReturnsTheFirstRecordAndRefusesAnotherBody() throws {
        let server = try InProcessServer()
        let tester = try prepared(server)
        let headers = [("Idempotency-Key", "0b9f5c2e-retry")]
        let first = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.passing(tester), headers: headers)
        let retry = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.passing(tester), headers: headers)
        #expect(first.status == 201)
        #expect(retry.status == 201)
        #expect(retry.headers["idempotent-replayed"] == "true")
        #expect(retry.json["id"] == first.json["id"])
        let other = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.passing(tester, comment: "changed"), headers: headers)
        #expect(other.status == 409)
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback").json["feedback"]?.arrayValue?.count == 1)
    }

    @Test func batchIsAllOrNothingWithIndexedErrors() throws {
        let server = try InProcessServer()
        let tester = try prepared(server)
        let bad = "[\(Self.passing(tester)),{\"tester\":\"\(tester)\",\"verdict\":\"great\"}]"
        let refused = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: bad)
        #expect(refused.status == 422)
        #expect(refused.errorFields.contains("[1].verdict"))
        #expect(refused.errorFields.allSatisfy { $0.hasPrefix("[1].") })
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback").json["feedback"]?.arrayValue?.isEmpty == true)
        let good = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: "[\(Self.passing(tester)),\(Self.passing(tester))]")
        #expect(good.status == 201)
        #expect(good.json["feedback"]?.arrayValue?.count == 2)
    }

    @Test func testerTokenSubmitsOnlyAsItself() throws {
        let server = try InProcessServer()
        let tester = try prepared(server)
        let token = try #require(try server.call("POST", "/v1/tokens", json: #"{"name":"ana","role":"tester","tester":"\#(tester)"}"#).json["token"]?.stringValue)
        var body = Self.passing(tester).replacingOccurrences(of: "\"tester\":\"\(tester)\",", with: "")
        let own = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", token: token, json: body)
        #expect(own.status == 201)
        #expect(own.json["tester"]?.stringValue == tester)
        body = Self.passing("t_someoneelse")
        #expect(try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", token: token, json: body).status == 403)
        let releaseManager = try server.token(role: "release_manager")
        #expect(try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", token: releaseManager, json: Self.passing(tester)).status == 403)
    }

    @Test func summaryCountsTheLatestPerTesterOnTheCurrentRevision() throws {
        let server = try InProcessServer()
        let ana = try prepared(server)
        let ben = try server.call("POST", "/v1/testers", json: #"{"name":"Ben","assistive_tech":["talkback:android:15"],"targeting_keys":["u-2"],"consent":"2026-11"}"#).json["id"]?.stringValue ?? ""
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(ben)"]}"#)
        let failing = Self.passing(ana).replacingOccurrences(of: "\"passed\"", with: "\"failed\"").replacingOccurrences(of: "\"minor\"", with: "\"serious\"")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: failing)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: Self.passing(ana))
        let benFails = Self.passing(ben).replacingOccurrences(of: "\"passed\"", with: "\"failed\"").replacingOccurrences(of: "\"minor\"", with: "\"critical\"")
            .replacingOccurrences(of: "\"voiceover\"", with: "\"talkback\"").replacingOccurrences(of: "\"ios\"", with: "\"android\"")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: benFails)
        let summary = try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback/summary").json
        #expect(summary["records"]?.intValue == 3)
        #expect(summary["testers"]?.intValue == 2)
        #expect(summary["by_verdict"]?["passed"]?.intValue == 1)
        #expect(summary["by_verdict"]?["failed"]?.intValue == 1)
        #expect(summary["by_assistive_tech"]?["voiceover"]?["passed"]?.intValue == 1)
        #expect(summary["by_assistive_tech"]?["talkback"]?["failed"]?.intValue == 1)
        #expect(summary["by_platform"]?["android"]?["total"]?.intValue == 1)
        #expect(summary["blocking"]?.arrayValue?.compactMap { $0["tester"]?.stringValue } == [ben])
        // A new revision starts the evidence afresh.
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/revise", json: #"{"note":"build 413"}"#)
        let fresh = try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback/summary").json
        #expect(fresh["revision"]?.intValue == 2)
        #expect(fresh["records"]?.intValue == 0)
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback?revision=1&tester=\(ana)").json["feedback"]?.arrayValue?.count == 2)
    }
}
