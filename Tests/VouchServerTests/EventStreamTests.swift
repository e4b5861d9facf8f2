import Foundation
import Testing
@testable import VouchAPI
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit

/// OFREP's push (docs/contracts.md, "Event streams"): the bulk answer names a stream, a committed change reaches
/// every open stream as one `refetchEvaluation`, reconnecting with `Last-Event-ID` catches up once, and a revoked
/// token's streams end.
@Suite(.serialized) struct EventStreamTests {
    static let fix = "tv-channel-selector-labels"
    static let context = #"{"context":{"targetingKey":"user-1"}}"#

    /// A server with the channel selector fix in testing, an sdk token, and that token's stream address.
    func prepared(settings: ApplicationSettings = InProcessServer.testSettings()) throws -> (server: InProcessServer, sdk: String, streamURL: String) {
        let server = try InProcessServer(settings: settings)
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(EventStreamTests.fix)/start")
        let sdk = try server.token(role: "sdk", name: "tv app")
        let bulk = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(sdk), json: EventStreamTests.context)
        let url = try #require(bulk.json["eventStreams"]?.arrayValue?.first?["url"]?.stringValue)
        // The setup's own changes are fanned out before a test opens its streams, so they hear only the test's.
        server.application.eventStreams.waitForFanOut()
        return (server, sdk, url)
    }

    func value(_ server: InProcessServer, token: String, query: String = "", headers: [(String, String)] = []) throws -> (InProcessServer.Answer, Bool?) {
        let answer = try server.call("POST", "/ofrep/v1/evaluate/flags" + query, token: .some(token), json: EventStreamTests.context, headers: headers)
        let flag = answer.json["flags"]?.arrayValue?.first { $0["key"]?.stringValue == EventStreamTests.fix }
        return (answer, flag?["value"]?.boolValue)
    }

    @Test func bulkAnswerNamesAStreamWithoutTheToken() throws {
        let (server, sdk, url) = try prepared()
        let bulk = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(sdk), json: EventStreamTests.context)
        let entry = try #require(bulk.json["eventStreams"]?.arrayValue?.first)
        #expect(entry["type"]?.stringValue == "sse")
        #expect(entry["inactivityDelaySec"]?.intValue == 120)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/ofrep/v1/event-stream?credential="))
        #expect(!url.contains(sdk) && !url.contains(String(sdk.dropFirst(4))))
        // Every answer within the credential's window names the same address, so clients are not made to reconnect.
        let again = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(sdk), json: EventStreamTests.context)
        #expect(again.json["eventStreams"]?.arrayValue?.first?["url"]?.stringValue == url)
    }

    @Test func aChangeThroughTheAPIReachesAnOpenStreamOnce() throws {
        let (server, sdk, url) = try prepared()
        let (before, valueBefore) = try value(server, token: sdk)
        #expect(valueBefore == false)
        let stream = try EventStreamClient(url: url)
        #expect(stream.status == 200)
        #expect(stream.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        #expect(stream.events(within: 0.2).isEmpty)

        let added = try server.call("POST", "/v1/fixes/\(EventStreamTests.fix)/targets", json: #"{"add":["user-1"]}"#)
        #expect(added.status == 200)
        let event = try #require(stream.nextEvent(within: 5))
        #expect(event.event == "message")
        let data = try JSONParser.parse(Array(event.data.utf8))
        #expect(data["type"]?.stringValue == "refetchEvaluation")
        let etag = try #require(data["etag"]?.stringValue)
        let lastModified = try #require(data["lastModified"]?.intValue)
        #expect(Int(event.id ?? "") != nil)
        #expect(stream.events(within: 0.3).isEmpty, "one change, one event")

        // The refetch the event triggers shows the new value, even with the old ETag (guideline 9).
        let query = "?flagConfigEtag=\(etag.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&flagConfigLastModified=\(lastModified)"
        let (after, valueAfter) = try value(server, token: sdk, query: query, headers: [("If-None-Match", before.headers["etag"] ?? "")])
        #expect(after.status == 200)
        #expect(valueAfter == true)
    }

    @Test func aRefetchNamingAnOlderConfigurationIsNeverA304() throws {
        let (server, sdk, _) = try prepared()
        let (first, _) = try value(server, token: sdk)
        let etag = try #require(first.headers["etag"])
        let (plain, _) = try value(server, token: sdk, headers: [("If-None-Match", etag)])
        #expect(plain.status == 304)
        let (older, _) = try value(server, token: sdk, query: "?flagConfigEtag=%22flags-0%22", headers: [("If-None-Match", etag)])
        #expect(older.status == 200)
        let current = server.application.eventStreams.configurationETag.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let (same, _) = try value(server, token: sdk, query: "?flagConfigEtag=\(current)", headers: [("If-None-Match", etag)])
        #expect(same.status == 304)
    }

    @Test func reconnectingWithLastEventIDCatchesUpOnce() throws {
        let (server, _, url) = try prepared()
        let stream = try EventStreamClient(url: url)
        try server.call("POST", "/v1/fixes/\(EventStreamTests.fix)/targets", json: #"{"add":["user-1"]}"#)
        let seen = try #require(stream.nextEvent(within: 5)?.id)
        // Two changes while the client is away.
        try server.call("POST", "/v1/fixes/\(EventStreamTests.fix)/targets", json: #"{"add":["user-2"]}"#)
        try server.call("POST", "/v1/fixes/\(EventStreamTests.fix)/targets", json: #"{"add":["user-3"]}"#)
        let newest = try #require(stream.events(within: 1).last?.id)
        let reconnected = try EventStreamClient(url: url, lastEventID: seen)
        let catchUp = reconnected.events(within: 0.5)
        #expect(catchUp.count == 1)
        #expect(catchUp.first?.id == newest)
        let current = try EventStreamClient(url: url, lastEventID: newest)
        #expect(current.events(within: 0.3).isEmpty)
    }

    @Test func nothingIsSentForAWriteThatFailed() throws {
        let (server, _, url) = try prepared()
        let stream = try EventStreamClient(url: url)
        // A fix in testing cannot be started again: 409, nothing committed, nothing to hear.
        #expect(try server.call("POST", "/v1/fixes/\(EventStreamTests.fix)/start").status == 409)
        #expect(try server.call("POST", "/v1/fixes/\(EventStreamTests.fix)/targets", json: #"{"add":[""]}"#).status == 422)
        #expect(stream.events(within: 0.5).isEmpty)
    }

    @Test func aRevokedTokensStreamEndsAndCannotReopen() throws {
        let (server, sdk, url) = try prepared()
        let stream = try EventStreamClient(url: url)
        let tokens = try server.call("GET", "/v1/tokens?limit=100").json["tokens"]?.arrayValue ?? []
        let id = try #require(tokens.first { $0["name"]?.stringValue == "tv app" }?["id"]?.stringValue)
        #expect(try server.call("DELETE", "/v1/tokens/\(id)").status == 200)
        #expect(stream.closes(within: 5))
        #expect(try EventStreamClient(url: url).status == 401)
        _ = sdk
    }

    @Test func aCredentialThatIsMissingAlteredOrForeignIsRefused() throws {
        let (server, _, url) = try prepared()
        let base = "http://127.0.0.1:\(server.port)/ofrep/v1/event-stream"
        #expect(try EventStreamClient(url: base).status == 401)
        #expect(try EventStreamClient(url: base + "?credential=abc").status == 401)
        var altered = Array(url)
        altered[altered.count - 3] = altered[altered.count - 3] == "A" ? "B" : "A"
        #expect(try EventStreamClient(url: String(altered)).status == 401)
        let foreign = StreamCredential(tokenID: "tok_other", expiresAt: Int64(Date().timeIntervalSince1970) + 600).encoded(key: Array(repeating: 7, count: 32))
        #expect(try EventStreamClient(url: base + "?credential=" + foreign).status == 401)
    }

    @Test func streamsCanBeTurnedOff() throws {
        var settings = InProcessServer.testSettings()
        settings.eventStreams.enabled = false
        let server = try InProcessServer(settings: settings)
        let bulk = try server.call("POST", "/ofrep/v1/evaluate/flags", json: EventStreamTests.context)
        #expect(bulk.status == 200)
        #expect(bulk.json["eventStreams"] == nil)
        #expect(try EventStreamClient(url: "http://127.0.0.1:\(server.port)/ofrep/v1/event-stream?credential=x").status == 404)
    }

    @Test func aPublicAddressReplacesTheHost() throws {
        var settings = InProcessServer.testSettings()
        settings.eventStreams.publicURL = "https://flags.example.com/vouch/"
        let server = try InProcessServer(settings: settings)
        let bulk = try server.call("POST", "/ofrep/v1/evaluate/flags", json: EventStreamTests.context)
        let url = try #require(bulk.json["eventStreams"]?.arrayValue?.first?["url"]?.stringValue)
        #expect(url.hasPrefix("https://flags.example.com/vouch/ofrep/v1/event-stream?credential="))
    }

    /// The third attack: one tester token held every stream slot. A person's token holds at most
    /// `maxStreamsPerToken`; past it, 429 and no `eventStreams` in its bulk answers, while other tokens go on.
    @Test func onePersonsTokenCannotHoldEveryStream() throws {
        var settings = InProcessServer.testSettings()
        settings.eventStreams.maxStreams = 10
        settings.eventStreams.maxStreamsPerToken = 3
        // A closed client is noticed when its stream's next keep-alive is written.
        settings.eventStreams.keepAliveSeconds = 1
        let (server, sdk, sdkURL) = try prepared(settings: settings)
        let tester = try server.token(role: "maintainer", name: "mallory")
        func bulk() throws -> InProcessServer.Answer {
            try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(tester), json: EventStreamTests.context)
        }
        let url = try #require(try bulk().json["eventStreams"]?.arrayValue?.first?["url"]?.stringValue)
        var held = try (0..<3).map { _ in try EventStreamClient(url: url) }
        #expect(held.map(\.status) == [200, 200, 200])
        let refused = try EventStreamClient(url: url)
        #expect(refused.status == 429)
        #expect(refused.headers["retry-after"] == "1")
        let atCap = try bulk()
        #expect(atCap.status == 200)
        #expect(atCap.json["eventStreams"] == nil, "a token that cannot open a stream is offered none")
        // Everyone else still gets in: the app's shared sdk token opens more than a person's share.
        let others = try (0..<5).map { _ in try EventStreamClient(url: sdkURL) }
        #expect(others.allSatisfy { $0.status == 200 })
        #expect(try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(sdk), json: EventStreamTests.context).json["eventStreams"] != nil)
        // One of hers ends: she is offered a stream again and may open it.
        held.removeLast()
        var offered = false
        for _ in 0..<250 where !offered {
            offered = try bulk().json["eventStreams"] != nil
            if !offered { usleep(20_000) }
        }
        #expect(offered)
        #expect(try EventStreamClient(url: url).status == 200)
    }
}

/// The credential alone: signed, bound to a token, expiring, and stable within its window.
struct StreamCredentialTests {
    let key = Array("a key of thirty-two bytes, fixed".utf8)

    @Test func roundTripsAndExpires() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let credential = StreamCredential.current(tokenID: "tok_1", now: now, lifetimeSeconds: 3_600)
        let text = credential.encoded(key: key)
        #expect(StreamCredential.verify(text, key: key, now: now) == .success(credential))
        #expect(StreamCredential.verify(text, key: key, now: Date(timeIntervalSince1970: TimeInterval(credential.expiresAt))) == .failure(.expired))
        #expect(StreamCredential.verify(text, key: Array(repeating: 1, count: 32), now: now) == .failure(.badSignature))
        for broken in ["", "a.b", "a.b.c.d", "!!.1.AAAA", text + "x", text.replacingOccurrences(of: ".", with: "..")] {
            #expect(StreamCredential.verify(broken, key: key, now: now) != .success(credential), "\(broken)")
        }
    }

    @Test func staysTheSameWithinHalfItsLifetimeAndValidForAtLeastThat() {
        let start = 1_800_000_000.0
        var distinct = Set<Int64>()
        for offset in stride(from: 0.0, to: 3_600, by: 60) {
            let now = Date(timeIntervalSince1970: start + offset)
            let credential = StreamCredential.current(tokenID: "tok_1", now: now, lifetimeSeconds: 3_600)
            #expect(Double(credential.expiresAt) - now.timeIntervalSince1970 >= 1_800)
            #expect(Double(credential.expiresAt) - now.timeIntervalSince1970 <= 3_600)
            distinct.insert(credential.expiresAt)
        }
        #expect(distinct.count <= 3)
    }
}
