import Foundation
import Testing
import VouchJSON

/// The README's moment of the seeds' story: the app holds an event stream while a second tester is enrolled, hears
/// of it at once, and its refetch shows the flag on for the tester's key.
@Suite struct ReadmeLiveChangeTests {
    @Test func enrollingATesterTurnsHerFlagOnWhileTheAppsStreamIsOpen() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let fix = "tv-channel-selector-labels"
        try server.call("POST", "/v1/fixes/\(fix)/start")
        let app = try server.token(role: "sdk", name: "tv-app")
        let context = #"{"context":{"targetingKey":"user-7"}}"#
        func flag(_ answer: InProcessServer.Answer) -> JSONValue? {
            answer.json["flags"]?.arrayValue?.first { $0["key"]?.stringValue == fix }
        }
        let before = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(app), json: context)
        #expect(flag(before)?["value"] == .bool(false))
        #expect(flag(before)?["reason"]?.stringValue == "DEFAULT")
        let url = try #require(before.json["eventStreams"]?.arrayValue?.first?["url"]?.stringValue)
        let stream = try EventStreamClient(url: url)
        #expect(stream.status == 200)

        let bo = try server.call("POST", "/v1/testers", json: #"""
            {"name":"Bo","assistive_tech":["voiceover:ios:18.1"],"targeting_keys":["user-7"],"consent":"2026-11"}
            """#)
        let id = try #require(bo.json["id"]?.stringValue)
        // A change committed before the stream opened may still reach it (its fan-out can lag on a loaded machine),
        // which only asks for a refetch that changes nothing; no event may name a revision after it.
        let revisionBefore = try #require(before.headers["vouch-configuration-revision"].flatMap { Int64($0) })
        #expect(stream.events(within: 0.2).allSatisfy { ($0.id.flatMap { Int64($0) } ?? .max) <= revisionBefore },
                "adding a tester alone changes no flag")
        #expect(try server.call("POST", "/v1/fixes/\(fix)/enrollments", json: #"{"testers":["\#(id)"]}"#).status == 200)
        let enrolledAt = Date()
        let event = try #require(stream.nextEvent(within: 5))
        let heardAfter = Date().timeIntervalSince(enrolledAt)
        #expect(event.data.contains("refetchEvaluation"))
        #expect(heardAfter < 1, "the stream heard of the enrollment \(Int(heardAfter * 1_000)) ms after its answer")
        let after = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(app), json: context)
        #expect(flag(after)?["value"] == .bool(true))
        #expect(flag(after)?["reason"]?.stringValue == "TARGETING_MATCH")
    }
}
