import Foundation
import Testing

/// Roles as docs/contracts.md ("Tokens and roles") grants them, checked over HTTP on every kind of route.
@Suite(.serialized) struct AuthorizationTests {
    @Test func missingOrUnknownTokenIs401WithProblem() throws {
        let server = try InProcessServer()
        let missing = try server.call("GET", "/v1/fixes", token: .some(nil))
        #expect(missing.status == 401)
        #expect(missing.headers["content-type"] == "application/problem+json")
        #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try server.call("GET", "/v1/fixes", token: "vch_not-a-real-token").status == 401)
        #expect(try server.call("GET", "/v1/fixes", token: .some(nil), headers: [("Authorization", "Basic abc")]).status == 401)
    }

    @Test func apiKeyHeaderIsAccepted() throws {
        let server = try InProcessServer()
        #expect(try server.call("GET", "/v1/fixes", token: .some(nil), headers: [("X-API-Key", server.adminToken)]).status == 200)
    }

    /// The scheme in any case, one space or more, blanks around the token: accepted; anything else is no token.
    @Test func bearerIsReadLikeRFC6750() throws {
        let server = try InProcessServer()
        let token = server.adminToken
        for accepted in ["Bearer \(token)", "bearer \(token)", "BEARER \(token)", "Bearer  \t\(token)", "Bearer \(token) \t "] {
            #expect(try server.call("GET", "/v1/fixes", token: .some(nil), headers: [("Authorization", accepted)]).status == 200, "\(accepted.prefix(9))")
        }
        for refused in ["Bearer\t\(token)", "Bearer" + token, "Bearer \(token)x", "Bearer x\(token)", "Token \(token)", "Bearer  ", "Bearer \(token.dropLast())"] {
            #expect(try server.call("GET", "/v1/fixes", token: .some(nil), headers: [("Authorization", refused)]).status == 401, "\(refused.prefix(9))")
        }
        // The same token through OFREP, whose evaluation route is matched before the router.
        let ofrep = try server.call("POST", "/ofrep/v1/evaluate/flags", token: .some(nil), json: "{}", headers: [("Authorization", "bearer  \(token) ")])
        #expect(ofrep.status == 200)
    }

    /// (role, method, path, body, expected status) for each role against each permission.
    static let matrix: [(String, String, String, String?, Int)] = [
        ("sdk", "GET", "/v1/fixes", nil, 403),
        ("sdk", "POST", "/v1/fixes", InProcessServer.channelSelectorFix, 403),
        ("sdk", "GET", "/v1/audit", nil, 403),
        ("sdk", "GET", "/v1/tokens", nil, 403),
        ("maintainer", "GET", "/v1/fixes", nil, 200),
        ("maintainer", "POST", "/v1/fixes/existing-fix/start", nil, 200),
        ("maintainer", "POST", "/v1/fixes/existing-fix/pause", nil, 403),
        ("maintainer", "POST", "/v1/fixes/existing-fix/targets", #"{"add":["qa-device"]}"#, 200),
        ("maintainer", "GET", "/v1/tokens", nil, 403),
        ("maintainer", "GET", "/v1/audit", nil, 200),
        ("release_manager", "GET", "/v1/fixes/existing-fix", nil, 200),
        ("release_manager", "PATCH", "/v1/fixes/existing-fix", #"{"title":"New"}"#, 403),
        ("release_manager", "POST", "/v1/fixes/existing-fix/start", nil, 403),
        ("release_manager", "POST", "/v1/fixes/testing-fix/pause", nil, 200),
        ("release_manager", "POST", "/v1/fixes/existing-fix/targets", #"{"add":["qa-device"]}"#, 403),
        ("release_manager", "POST", "/v1/tokens", #"{"name":"x","role":"sdk"}"#, 403),
        ("admin", "GET", "/v1/tokens", nil, 200),
    ]

    @Test func eachRoleReachesExactlyWhatItMay() throws {
        let server = try InProcessServer()
        for key in ["existing-fix", "testing-fix"] {
            try server.call("POST", "/v1/fixes", json: #"{"key":"\#(key)","title":"T","ui_area":"Settings screen","platforms":["web"]}"#)
        }
        try server.call("POST", "/v1/fixes/testing-fix/start")
        var tokens: [String: String] = [:]
        for role in ["sdk", "maintainer", "release_manager", "admin"] { tokens[role] = try server.token(role: role) }
        for (role, method, path, body, expected) in Self.matrix {
            let answer = try server.call(method, path, token: tokens[role]!, json: body)
            #expect(answer.status == expected, "\(role) \(method) \(path): \(answer.text)")
            if expected == 403 { #expect(answer.json["detail"]?.stringValue?.contains(role) == true) }
        }
    }

    @Test func everyRoleMayEvaluateFlags() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        for role in ["sdk", "maintainer", "release_manager", "admin"] {
            let token = try server.token(role: role)
            #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1", token: token).status == 200)
        }
    }

    @Test func revokedTokenStopsWorkingAtOnce() throws {
        let server = try InProcessServer()
        let created = try server.call("POST", "/v1/tokens", json: #"{"name":"ios-app","role":"sdk"}"#)
        let secret = try #require(created.json["token"]?.stringValue)
        let id = try #require(created.json["id"]?.stringValue)
        #expect(secret.hasPrefix("vch_"))
        try server.createChannelSelectorFix()
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "u", token: secret).status == 200)
        #expect(try server.call("DELETE", "/v1/tokens/\(id)").status == 200)
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "u", token: secret).status == 401)
        #expect(try server.call("DELETE", "/v1/tokens/tok_missing").status == 404)
    }

    @Test func theLastAdminTokenCannotBeRevoked() throws {
        let server = try InProcessServer()
        let list = try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue ?? []
        let adminID = try #require(list.first?["id"]?.stringValue)
        let refused = try server.call("DELETE", "/v1/tokens/\(adminID)")
        #expect(refused.status == 409)
        #expect(refused.json["detail"]?.stringValue?.contains("last active admin token") == true)
        let second = try server.token(role: "admin", name: "second-admin")
        #expect(try server.call("DELETE", "/v1/tokens/\(adminID)", token: second).status == 200)
        #expect(try server.call("GET", "/v1/fixes").status == 401)
        #expect(try server.call("GET", "/v1/fixes", token: second).status == 200)
    }

    @Test func headIsGetWithoutBodyAndAllowNamesTheRightMethods() throws {
        let server = try InProcessServer()
        let head = try server.call("HEAD", "/healthz", token: .some(nil))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        try server.createChannelSelectorFix()
        let wrong = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/status")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
    }

    @Test func tokenListNeverShowsSecretsOrHashes() throws {
        let server = try InProcessServer()
        let secret = try server.token(role: "sdk")
        let list = try server.call("GET", "/v1/tokens")
        #expect(list.status == 200)
        #expect(!list.text.contains(secret))
        #expect(!list.text.contains("sha256"))
        #expect(list.json["tokens"]?.arrayValue?.count == 2)
        let audit = try server.call("GET", "/v1/audit")
        #expect(!audit.text.contains(secret))
        #expect(!audit.text.contains(server.adminToken))
    }

    @Test func tokenCreationValidatesEachField() throws {
        let server = try InProcessServer()
        let answer = try server.call("POST", "/v1/tokens", json: #"{"role":"superuser","extra":1}"#)
        #expect(answer.status == 422)
        #expect(Set(answer.errorFields) == ["name", "role", "extra"])
        let tester = try server.call("POST", "/v1/tokens", json: #"{"name":"t","role":"tester"}"#)
        #expect(tester.status == 422)
        #expect(tester.errorFields == ["tester"])
    }

    @Test func healthAndMetricsNeedNoToken() throws {
        let server = try InProcessServer()
        #expect(try server.call("GET", "/healthz", token: .some(nil)).status == 200)
        #expect(try server.call("GET", "/readyz", token: .some(nil)).status == 200)
        let metrics = try server.call("GET", "/metrics", token: .some(nil))
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("vouch_http_requests_total{method=\"GET\",route=\"/healthz\",code=\"200\"} 1"))
    }
}
