import Foundation
import Testing
import VouchDomain
@testable import VouchServer
@testable import VouchServerKit

/// Browsers on other origins read OFREP, and only OFREP (docs/contracts.md, "Browsers").
@Suite(.serialized) struct OFREPCORSTests {
    static let origin = "https://app.example.com"
    static let bulk = "/ofrep/v1/evaluate/flags"
    static let context = #"{"context":{"targetingKey":"user-1"}}"#

    /// A fix in testing with user-1 targeted, served with the given origins allowed.
    func prepared(_ origins: CORSPolicy.Origins = .any, authFailures: AuthFailureLimiter.Settings = AuthFailureLimiter.Settings()) throws -> InProcessServer {
        var settings = InProcessServer.testSettings()
        settings.cors = CORSPolicy(origins: origins)
        settings.authFailures = authFailures
        let server = try InProcessServer(settings: settings)
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["user-1"]}"#)
        return server
    }

    func preflight(_ server: InProcessServer, path: String = OFREPCORSTests.bulk, origin: String = OFREPCORSTests.origin) throws -> InProcessServer.Answer {
        try server.call("OPTIONS", path, token: .some(nil), headers: [
            ("Origin", origin), ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "authorization,content-type,if-none-match"),
        ])
    }

    func expectReadable(_ answer: InProcessServer.Answer, allowOrigin: String, _ comment: Comment) {
        #expect(answer.headers["access-control-allow-origin"] == allowOrigin, comment)
        #expect(answer.headers["access-control-expose-headers"] == "ETag, Retry-After", comment)
        #expect(answer.headers["access-control-allow-credentials"] == nil, comment)
    }

    /// Every path under `/ofrep/`, the event stream's too (an EventSource that sends `Last-Event-ID` is preflighted).
    @Test func aPreflightFromAnyOriginIsAllowedWithoutAToken() throws {
        let server = try prepared()
        for path in [OFREPCORSTests.bulk, OFREPCORSTests.bulk + "/tv-channel-selector-labels", OFREPCORSTests.bulk + "/no-such-flag",
                     "/ofrep/v1/event-stream"] {
            let answer = try preflight(server, path: path)
            #expect(answer.status == 204, "\(path)")
            #expect(answer.headers["access-control-allow-origin"] == "*")
            #expect(answer.headers["access-control-allow-methods"] == "GET, POST, OPTIONS")
            #expect(answer.headers["access-control-allow-headers"] == "Authorization, Content-Type, If-None-Match, X-API-Key, Last-Event-ID")
            #expect(answer.headers["access-control-max-age"] == "600")
            #expect(answer.headers["access-control-allow-credentials"] == nil)
            #expect(answer.headers["vary"] == nil, "with * the answer is the same for every origin")
            #expect(answer.body.isEmpty)
        }
    }

    @Test func everyOFREPAnswerToAnOriginIsReadable() throws {
        let server = try prepared(authFailures: AuthFailureLimiter.Settings(maxFailures: 2, windowSeconds: 60))
        let sdk = try server.token(role: "sdk")
        let origin = [("Origin", OFREPCORSTests.origin)]
        let ok = try server.call("POST", OFREPCORSTests.bulk, token: .some(sdk), json: OFREPCORSTests.context, headers: origin)
        #expect(ok.status == 200)
        expectReadable(ok, allowOrigin: "*", "200")
        let etag = try #require(ok.headers["etag"])
        let notModified = try server.call("POST", OFREPCORSTests.bulk, token: .some(sdk), json: OFREPCORSTests.context,
                                          headers: origin + [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        expectReadable(notModified, allowOrigin: "*", "304")
        let notFound = try server.call("POST", OFREPCORSTests.bulk + "/no-such-flag", token: .some(sdk), json: OFREPCORSTests.context, headers: origin)
        #expect(notFound.status == 404)
        expectReadable(notFound, allowOrigin: "*", "404")
        let badBody = try server.call("POST", OFREPCORSTests.bulk, token: .some(sdk), json: "{not json", headers: origin)
        #expect(badBody.status == 400)
        expectReadable(badBody, allowOrigin: "*", "400")
        let wrongMethod = try server.call("GET", OFREPCORSTests.bulk, token: .some(sdk), headers: origin)
        #expect(wrongMethod.status == 405)
        expectReadable(wrongMethod, allowOrigin: "*", "405")
        for attempt in 1...2 {
            let unknown = try server.call("POST", OFREPCORSTests.bulk, token: .some("vch_" + String(repeating: "x", count: 40)),
                                          json: OFREPCORSTests.context, headers: origin)
            #expect(unknown.status == 401)
            expectReadable(unknown, allowOrigin: "*", "401, attempt \(attempt)")
        }
        let blocked = try server.call("POST", OFREPCORSTests.bulk, token: .some(sdk), json: OFREPCORSTests.context, headers: origin)
        #expect(blocked.status == 429)
        #expect(blocked.headers["retry-after"] != nil)
        expectReadable(blocked, allowOrigin: "*", "429")
    }

    @Test func aListedOriginIsEchoedAndAnotherGetsNoAllowHeaders() throws {
        let server = try prepared(.listed([OFREPCORSTests.origin, "http://localhost:3000"]))
        let sdk = try server.token(role: "sdk")
        let allowed = try preflight(server)
        #expect(allowed.status == 204)
        #expect(allowed.headers["access-control-allow-origin"] == OFREPCORSTests.origin)
        #expect(allowed.headers["access-control-allow-methods"] == "GET, POST, OPTIONS")
        #expect(allowed.headers["vary"] == "Origin")
        let evaluated = try server.call("POST", OFREPCORSTests.bulk, token: .some(sdk), json: OFREPCORSTests.context,
                                        headers: [("Origin", "http://localhost:3000")])
        #expect(evaluated.status == 200)
        expectReadable(evaluated, allowOrigin: "http://localhost:3000", "a listed origin")
        #expect(evaluated.headers["vary"] == "Origin")

        let refused = try preflight(server, origin: "https://evil.example.net")
        #expect(refused.status == 204)
        #expect(refused.headers["access-control-allow-origin"] == nil)
        #expect(refused.headers["access-control-allow-methods"] == nil)
        #expect(refused.headers["access-control-allow-headers"] == nil)
        #expect(refused.headers["vary"] == "Origin", "caches must keep answers per origin")
        let unlisted = try server.call("POST", OFREPCORSTests.bulk, token: .some(sdk), json: OFREPCORSTests.context,
                                       headers: [("Origin", "https://evil.example.net")])
        #expect(unlisted.status == 200, "CORS limits what a browser lets a page read; the server still answers")
        #expect(unlisted.headers["access-control-allow-origin"] == nil)
        #expect(unlisted.headers["access-control-expose-headers"] == nil)
        #expect(unlisted.headers["vary"] == "Origin")
        let noOrigin = try server.call("POST", OFREPCORSTests.bulk, token: .some(sdk), json: OFREPCORSTests.context)
        #expect(noOrigin.headers["access-control-allow-origin"] == nil)
        #expect(noOrigin.headers["vary"] == "Origin")
        let null = try preflight(server, origin: "null")
        #expect(null.headers["access-control-allow-origin"] == nil, "a sandboxed or file: page is never a listed origin")
    }

    @Test func optionsWithoutOriginListsTheMethodsAndTheRestOfTheAPIStaysSameOrigin() throws {
        let server = try prepared()
        let options = try server.call("OPTIONS", OFREPCORSTests.bulk, token: .some(nil))
        #expect(options.status == 204)
        #expect(options.headers["allow"] == "POST, OPTIONS")
        #expect(options.headers["access-control-allow-origin"] == nil)
        let unknownPath = try server.call("OPTIONS", "/ofrep/v1/nothing-here", token: .some(nil))
        #expect(unknownPath.status == 404)
        let stream = try server.call("OPTIONS", "/ofrep/v1/event-stream", token: .some(nil))
        #expect(stream.status == 204)
        #expect(stream.headers["allow"] == "GET, OPTIONS")

        let api = try server.call("GET", "/v1/fixes", headers: [("Origin", OFREPCORSTests.origin)])
        #expect(api.status == 200)
        #expect(api.headers["access-control-allow-origin"] == nil, "only /ofrep/ is open to other origins")
        let apiPreflight = try preflight(server, path: "/v1/fixes")
        #expect(apiPreflight.status == 405)
        #expect(apiPreflight.headers["access-control-allow-origin"] == nil)
    }

    @Test(arguments: [
        ("*", CORSPolicy.Origins.any),
        (" * ", .any),
        ("https://app.example.com", .listed(["https://app.example.com"])),
        ("HTTPS://App.Example.com:443, http://localhost:80,http://localhost:3000", .listed(["https://app.example.com", "http://localhost", "http://localhost:3000"])),
        ("capacitor://localhost", .listed(["capacitor://localhost"])),
        ("http://[::1]:8080,http://127.0.0.1:8080", .listed(["http://[::1]:8080", "http://127.0.0.1:8080"])),
        ("https://xn--bcher-kva.example", .listed(["https://xn--bcher-kva.example"])),
    ])
    func aSettingIsReadAsBrowsersSendOrigins(text: String, origins: CORSPolicy.Origins) throws {
        #expect(try CORSPolicy.origins(parsing: text, field: "ofrep.cors_origins") == origins)
    }

    @Test(arguments: [
        "https://app.example.com/", "https://app.example.com/app", "app.example.com", "https://", "https://a.example.com:0",
        "https://a.example.com:65536", "https://a.example.com:80a", "https://user@a.example.com", "https://a.example.com?x=1",
        "null", "", "https://a.example.com,,https://b.example.com", "*,https://a.example.com", "https://bücher.example",
        "1http://a.example.com", "http://[zz::1]",
    ])
    func checkConfigRefusesWhatIsNotAnOrigin(value: String) throws {
        let run = try VouchdRun(["check-config"], environment: ["VOUCHD_OFREP_CORS_ORIGINS": value])
        #expect(run.status == 78, "'\(value)' must be refused")
        #expect(run.errors.contains("environment variable VOUCHD_OFREP_CORS_ORIGINS: ofrep.cors_origins = '\(value)' is not valid: "))
        #expect(run.errors.contains("such as https://app.example.com") || run.errors.contains("* allows every origin and stands alone"), "\(run.errors)")
    }

    @Test func checkConfigShowsTheOriginsAndTheDefault() throws {
        let defaults = try VouchdRun(["check-config"])
        #expect(defaults.output.split(separator: "\n").contains("ofrep.cors_origins = *    # from default"))
        let listed = try VouchdRun(["check-config"], environment: ["VOUCHD_OFREP_CORS_ORIGINS": "https://app.example.com,http://localhost:3000"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.contains("ofrep.cors_origins = https://app.example.com,http://localhost:3000    # from environment VOUCHD_OFREP_CORS_ORIGINS"))
    }
}
