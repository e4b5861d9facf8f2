import Foundation
import Testing
import VouchJSON
@testable import VouchServer

/// Push chosen per app (docs/contracts.md, "Push per token"): a token made with `"event_streams": false` gets bulk
/// answers that the Kotlin OFREP provider 0.1 decodes, while every other token on the same daemon keeps push.
@Suite struct PushPerTokenTests {
    static let context = #"{"context":{"targetingKey":"user-1"}}"#

    /// What the Kotlin provider (kotlin-sdk-contrib `providers/ofrep` 0.1) accepts of a bulk answer, as its decoder
    /// reads it: kotlinx.serialization without `ignoreUnknownKeys`, so a member its classes do not declare fails the
    /// whole decode. `OfrepApiResponse` declares `flags`, `errorCode` and `errorDetails`; `FlagDto` declares `key`
    /// (required), `value`, `reason`, `variant`, `errorCode`, `errorDetails` and `metadata`, whose values may be
    /// strings, booleans or 32-bit integers only. The problems found; none means it decodes.
    static func kotlinProviderProblems(_ answer: JSONValue) -> [String] {
        guard let top = answer.objectValue else { return ["the answer is not an object"] }
        var problems = top.keys.filter { !["flags", "errorCode", "errorDetails"].contains($0) }.map { "unknown top-level member \($0)" }
        for flag in top["flags"]?.arrayValue ?? [] {
            guard let members = flag.objectValue, members["key"]?.stringValue != nil else {
                problems.append("a flag without key")
                continue
            }
            let known = ["key", "value", "reason", "variant", "errorCode", "errorDetails", "metadata"]
            problems += members.keys.filter { !known.contains($0) }.map { "unknown flag member \($0)" }
            for (name, value) in members["metadata"]?.objectValue?.members ?? [] {
                let small = value.doubleValue.map { $0 == $0.rounded() && abs($0) <= Double(Int32.max) } ?? false
                if value.stringValue == nil, value.boolValue == nil, !small { problems.append("metadata \(name) is not a string, boolean or Int32") }
            }
        }
        return problems
    }

    @Test func aTokenWithoutEventStreamsGetsAnswersTheKotlinProviderDecodes() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let made = try server.call("POST", "/v1/tokens", json: #"{"name":"android app","role":"sdk","event_streams":false}"#)
        #expect(made.status == 201)
        #expect(made.json["event_streams"] == .bool(false))
        let android = try #require(made.json["token"]?.stringValue)
        let web = try server.token(role: "sdk", name: "web app")

        let quiet = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(android), json: Self.context)
        #expect(quiet.status == 200)
        #expect(quiet.json["eventStreams"] == nil)
        #expect(quiet.json["flags"]?.arrayValue?.count == 1)
        #expect(Self.kotlinProviderProblems(quiet.json) == [])

        // The rest of the daemon keeps push: another sdk token's answer names a stream, which the Kotlin rule refuses.
        let pushed = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(web), json: Self.context)
        #expect(pushed.json["eventStreams"]?.arrayValue?.first?["type"]?.stringValue == "sse")
        #expect(Self.kotlinProviderProblems(pushed.json) == ["unknown top-level member eventStreams"])

        // Listed with the token, for the API and the audit log alike.
        let listed = try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue ?? []
        #expect(listed.first { $0["name"]?.stringValue == "android app" }?["event_streams"] == .bool(false))
        #expect(listed.first { $0["name"]?.stringValue == "web app" }?["event_streams"] == .bool(true))
        let audit = try server.call("GET", "/v1/audit").text
        #expect(audit.contains(#"\"event_streams\":false"#) || audit.contains(#""event_streams":false"#), "\(audit)")

        // A 304 for it stays a 304: the answer without a stream has an entity tag of its own.
        let etag = try #require(quiet.headers["etag"] ?? quiet.headers["ETag"])
        #expect(try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(android), json: Self.context, headers: [("If-None-Match", etag)]).status == 304)
    }

    @Test func eventStreamsMustBeABoolean() throws {
        let server = try InProcessServer()
        let refused = try server.call("POST", "/v1/tokens", json: #"{"name":"android app","role":"sdk","event_streams":"no"}"#)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["event_streams"])
    }
}
