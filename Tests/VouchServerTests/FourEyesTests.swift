import Foundation
import Testing
import VouchDomain
import VouchJSON
@testable import VouchServer

/// The product's central promise as attacks: no role, override or spelling of a name releases a fix without the
/// approval of a release manager who is not its author.
@Suite(.serialized) struct FourEyesTests {
    static let key = "tv-channel-selector-labels"
    /// Every criterion at its weakest; only approvals remain to hold a fix back.
    static let weakest = #"{"min_testers_passed":0,"required_assistive_tech":[],"max_blocking":0,"min_pass_ratio":0,"min_soak":"0""#

    static let settings = InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 1, requiredAssistiveTech: [], minSoakSeconds: 0))

    func state(_ server: InProcessServer) throws -> String {
        try server.call("GET", "/v1/fixes/\(Self.key)").json["state"]?.stringValue ?? ""
    }

    /// Waits a little for the daemon's automatic promotion, which follows a change by about a millisecond.
    func stateAfterSettling(_ server: InProcessServer, until expected: String? = nil) throws -> String {
        let deadline = Date().addingTimeInterval(expected == nil ? 0.3 : 5)
        var last = try state(server)
        while Date() < deadline, last != expected {
            Thread.sleep(forTimeInterval: 0.02)
            last = try state(server)
        }
        return last
    }

    func token(_ server: InProcessServer, name: String, role: String, principal: String? = nil) throws -> InProcessServer.Answer {
        var body: JSONObject = ["name": .string(name), "role": .string(role)]
        if let principal { body["principal"] = .string(principal) }
        return try server.call("POST", "/v1/tokens", json: JSONWriter.string(.object(body)))
    }

    func secret(_ answer: InProcessServer.Answer) throws -> String { try #require(answer.json["token"]?.stringValue, "\(answer.status) \(answer.text)") }

    func approve(_ server: InProcessServer, _ token: String) throws -> InProcessServer.Answer {
        try server.call("POST", "/v1/fixes/\(Self.key)/approvals", token: token, json: #"{"decision":"approve"}"#)
    }

    /// The reported attack: a maintainer zeroes the criteria of her own fix and it is released a moment later.
    @Test func aMaintainerCannotLowerCriteriaAndReleaseAlone() throws {
        let server = try InProcessServer(settings: Self.settings)
        let maintainer = try secret(try token(server, name: "mia", role: "maintainer"))
        #expect(try server.call("POST", "/v1/fixes", token: maintainer, json: InProcessServer.channelSelectorFix).status == 201)
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/start", token: maintainer).status == 200)
        let attack = try server.call("PUT", "/v1/fixes/\(Self.key)/criteria", token: maintainer, json: Self.weakest + #","approvals_required":0}"#)
        #expect(attack.status == 403)
        #expect(try stateAfterSettling(server) == "testing")
        #expect(try server.evaluate(Self.key, targetingKey: "anyone").json["reason"]?.stringValue == "DEFAULT")
        // Nor through her fix's own fields, or a lifecycle command.
        #expect(try server.call("PATCH", "/v1/fixes/\(Self.key)", token: maintainer, json: #"{"criteria":{"approvals_required":0}}"#).status == 422)
        for action in ["promote", "retry-promotion", "resume"] {
            #expect(try server.call("POST", "/v1/fixes/\(Self.key)/\(action)", token: maintainer, json: "{}").status == 403)
        }
        #expect(try approve(server, maintainer).status == 403)
        #expect(try stateAfterSettling(server) == "testing")
    }

    @Test(arguments: ["maintainer", "sdk", "tester"])
    func onlyReleaseManagersAndAdminsSetCriteria(role: String) throws {
        let server = try InProcessServer(settings: Self.settings)
        try server.createChannelSelectorFix()
        let token: String
        if role == "tester" {
            let tester = try server.call("POST", "/v1/testers", json: #"{"name":"T","assistive_tech":["voiceover:ios"],"targeting_keys":["k1"],"consent":"v1"}"#)
            let id = try #require(tester.json["id"]?.stringValue)
            try server.call("POST", "/v1/fixes/\(Self.key)/enrollments", json: #"{"testers":["\#(id)"]}"#)
            token = try secret(try server.call("POST", "/v1/tokens", json: #"{"name":"phone","role":"tester","tester":"\#(id)"}"#))
        } else {
            token = try secret(try self.token(server, name: "someone", role: role))
        }
        let answer = try server.call("PUT", "/v1/fixes/\(Self.key)/criteria", token: token, json: #"{"min_testers_passed":1}"#)
        #expect(answer.status == 403, "\(role) set criteria: \(answer.status)")
        #expect(try server.call("GET", "/v1/fixes/\(Self.key)").json["criteria"] == .object([:]))
    }

    @Test func criteriaChangesAreAuditedWithBeforeAndAfter() throws {
        let server = try InProcessServer(settings: Self.settings)
        try server.createChannelSelectorFix()
        let manager = try secret(try token(server, name: "rita", role: "release_manager"))
        #expect(try server.call("PUT", "/v1/fixes/\(Self.key)/criteria", token: manager, json: #"{"min_testers_passed":3}"#).status == 200)
        let events = try server.call("GET", "/v1/audit?fix=\(Self.key)").json["events"]?.arrayValue ?? []
        let change = try #require(events.first { $0["action"]?.stringValue == "fix.criteria" })
        #expect(change["principal"]?.stringValue == "rita")
        #expect(change["before"]?["criteria"] == .object([:]))
        #expect(change["after"]?["criteria"]?["min_testers_passed"] == .int(3))
    }

    /// Every value of approvals_required that could mean "none", by the strongest role: refused, or without effect.
    @Test(arguments: ["0", "-1", "0.5", "1e-300", "-0", "null", "\"0\"", "false", "[]"])
    func noApprovalsOverrideLetsAFixThrough(value: String) throws {
        let server = try InProcessServer(settings: Self.settings)
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        let answer = try server.call("PUT", "/v1/fixes/\(Self.key)/criteria", json: Self.weakest + #","approvals_required":\#(value)}"#)
        if value == "null" {
            #expect(answer.status == 200)
        } else {
            #expect(answer.status == 422, "approvals_required \(value): \(answer.status)")
            #expect(answer.errorFields == ["approvals_required"])
        }
        #expect(try stateAfterSettling(server) == "testing", "approvals_required \(value) released the fix")
        let status = try server.call("GET", "/v1/fixes/\(Self.key)/status").json
        #expect(status["ready_to_promote"] == .bool(false))
        // The author (the admin made the fix) cannot be the approver, even holding a release manager's token.
        let authorsOther = try secret(try token(server, name: "admin's other laptop", role: "release_manager", principal: "ADMIN"))
        #expect(try approve(server, authorsOther).status == 403)
        #expect(try stateAfterSettling(server) == "testing")
        // With every other criterion at its weakest, a release manager who is someone else releases it.
        #expect(try server.call("PUT", "/v1/fixes/\(Self.key)/criteria", json: Self.weakest + "}").status == 200)
        #expect(try stateAfterSettling(server) == "testing")
        #expect(try approve(server, try secret(try token(server, name: "rita", role: "release_manager"))).status == 201)
        #expect(try stateAfterSettling(server, until: "released") == "released")
    }

    /// approvals_required 2: one person with two tokens, however their names are spelled, is one vote.
    @Test func onePersonIsOneVoteWhateverTheTokenIsCalled() throws {
        let server = try InProcessServer(settings: Self.settings)
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        #expect(try server.call("PUT", "/v1/fixes/\(Self.key)/criteria", json: Self.weakest + #","approvals_required":2}"#).status == 200)
        let first = try secret(try token(server, name: "tok-release_manager", role: "release_manager"))
        #expect(try approve(server, first).status == 201)

        // Hidden characters are refused outright, in a token's name and in a principal.
        for hidden in ["\u{AD}", "\u{FEFF}", "\u{2060}", "\u{200B}"] {
            let viaName = try token(server, name: "tok-release_manager" + hidden, role: "release_manager")
            #expect(viaName.status == 422 && viaName.errorFields == ["name"], "hidden U+\(String(hidden.unicodeScalars.first!.value, radix: 16))")
            let viaPrincipal = try token(server, name: "second laptop", role: "release_manager", principal: "tok-release" + hidden + "_manager")
            #expect(viaPrincipal.status == 422 && viaPrincipal.errorFields == ["principal"])
        }
        // Look-alike letters are refused as a new principal: fullwidth folds into the same one, Cyrillic is confusable.
        for lookAlike in ["tok-rеlease_manager", "tok-release_rnanager", "TOK-RELEASE_MANAGER ", "ｔｏｋ-release_manager"] {
            let answer = try token(server, name: lookAlike, role: "release_manager")
            if answer.status == 201 {
                // Accepted only as the very same principal, whose second vote is refused.
                #expect(answer.json["principal"]?.stringValue == "tok-release_manager", "\(lookAlike) became \(answer.json["principal"] ?? .null)")
                #expect(try approve(server, try secret(answer)).status == 409)
            } else {
                #expect(answer.status == 422 && answer.errorFields == ["name"], "\(lookAlike): \(answer.status) \(answer.text)")
                #expect(answer.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("looks like the existing principal") == true)
            }
        }
        #expect(try stateAfterSettling(server) == "testing")
        // A second token issued to the same principal under another name is still one vote.
        let second = try secret(try token(server, name: "rita's phone", role: "release_manager", principal: "Tok-Release_Manager"))
        #expect(try approve(server, second).status == 409)
        #expect(try stateAfterSettling(server) == "testing")
        // A second person completes it.
        #expect(try approve(server, try secret(try token(server, name: "sam", role: "release_manager"))).status == 201)
        #expect(try stateAfterSettling(server, until: "released") == "released")
    }

    @Test func reservedAndTesterLikePrincipalsAreRefused() throws {
        let server = try InProcessServer(settings: Self.settings)
        for name in ["vouchd", "Withdrawn", "t_abcdef"] {
            let answer = try token(server, name: name, role: "release_manager")
            #expect(answer.status == 422 && answer.errorFields == ["name"], "\(name): \(answer.status)")
        }
        let tester = try server.call("POST", "/v1/tokens", json: #"{"name":"x","role":"tester","tester":"t_x","principal":"rita"}"#)
        #expect(tester.status == 422 && tester.errorFields.contains("principal"))
    }

    /// Blank-looking characters, a dotted capital I, doubled spaces and look-alikes of reserved names, each
    /// through the token's name and through `principal`. None may become a second principal beside `tok-maintainer`
    /// and `rita smith`, or pass for the daemon or a tester.
    @Test func lookAlikePrincipalsFromTheAttackAreRefused() throws {
        let server = try InProcessServer(settings: Self.settings)
        #expect(try token(server, name: "tok-maintainer", role: "maintainer").status == 201)
        #expect(try token(server, name: "rita smith", role: "release_manager").status == 201)
        for blank in ["\u{2800}", "\u{3164}", "\u{FFA0}", "\u{115F}", "\u{1160}", "\u{180E}", "\u{2007}", "\u{A0}", "\u{3000}"] {
            let hex = String(blank.unicodeScalars.first!.value, radix: 16, uppercase: true)
            let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let viaName = try token(server, name: "tok-maintainer" + blank, role: "maintainer")
            #expect(viaName.status == 422 && viaName.errorFields == ["name"], "U+\(code): \(viaName.status) \(viaName.text)")
            let viaPrincipal = try token(server, name: "laptop", role: "maintainer", principal: "tok-maintainer" + blank)
            #expect(viaPrincipal.status == 422 && viaPrincipal.errorFields == ["principal"], "U+\(code): \(viaPrincipal.status)")
            #expect(viaPrincipal.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("U+\(code)") == true)
        }
        for lookAlike in ["tok-maintaİner", "tok-mainta\u{0069}\u{0307}ner", "tok-maintainer\u{0301}\u{0301}", "tok-mạintainer"] {
            let answer = try token(server, name: "laptop", role: "maintainer", principal: lookAlike)
            #expect(answer.status == 422 && answer.errorFields == ["principal"], "\(lookAlike): \(answer.status) \(answer.text)")
            #expect(answer.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("looks like the existing principal 'tok-maintainer'") == true)
        }
        // A doubled space is the same principal, not a second one.
        let doubled = try token(server, name: "rita  smith", role: "release_manager")
        #expect(doubled.status == 201 && doubled.json["principal"]?.stringValue == "rita smith")
        for reserved in ["vоuchd", "wіthdrawn", "sуstem", "τ_abc", "Τ_ABC", "т_abc", "t＿abc"] {
            let answer = try token(server, name: reserved, role: "release_manager")
            #expect(answer.status == 422 && answer.errorFields == ["name"], "\(reserved): \(answer.status) \(answer.text)")
            #expect(answer.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("looks like the reserved name") == true)
        }
        let tokens = try server.call("GET", "/v1/tokens?limit=500").json["tokens"]?.arrayValue ?? []
        #expect(Set(tokens.compactMap { $0["principal"]?.stringValue }) == ["admin", "tok-maintainer", "rita smith"])
    }

    /// A voided approval may be renewed by the same principal; a rejection stands until a new revision.
    @Test func aVoidedApprovalCanBeRenewedButARejectionStands() throws {
        let server = try InProcessServer(settings: InProcessServer.testSettings(criteria: CriteriaSettings(minTestersPassed: 2, requiredAssistiveTech: [], minSoakSeconds: 0)))
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        var testers: [String] = []
        for index in 1...2 {
            let body = #"{"name":"T\#(index)","assistive_tech":["voiceover:ios"],"targeting_keys":["k\#(index)"],"consent":"v1"}"#
            testers.append(try #require(try server.call("POST", "/v1/testers", json: body).json["id"]?.stringValue))
        }
        try server.call("POST", "/v1/fixes/\(Self.key)/enrollments", json: JSONWriter.string(.object(["testers": .strings(testers)])))
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: FeedbackRoutesTests.passing(testers[0])).status == 201)
        let rita = try secret(try token(server, name: "rita", role: "release_manager"))
        #expect(try approve(server, rita).status == 201)
        #expect(try approve(server, rita).status == 409, "a standing approval is one vote")
        let failing = FeedbackRoutesTests.passing(testers[1]).replacingOccurrences(of: "\"passed\"", with: "\"failed\"")
            .replacingOccurrences(of: "\"minor\"", with: "\"serious\"")
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: failing).status == 201)
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/feedback", json: FeedbackRoutesTests.passing(testers[1])).status == 201)
        #expect(try stateAfterSettling(server) == "testing", "the failing report voided the approval")
        let renewed = try approve(server, rita)
        #expect(renewed.status == 201, "\(renewed.text)")
        #expect(try stateAfterSettling(server, until: "released") == "released")
        let approvals = try server.call("GET", "/v1/fixes/\(Self.key)/approvals").json["approvals"]?.arrayValue ?? []
        #expect(approvals.count == 1, "the replaced approval is history, not a second vote")
        let audit = try server.call("GET", "/v1/audit?fix=\(Self.key)").json["events"]?.arrayValue ?? []
        #expect(audit.filter { $0["action"]?.stringValue == "approval.approve" }.count == 2)
    }

    @Test func aRejectionStandsUntilANewRevision() throws {
        let server = try InProcessServer(settings: Self.settings)
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        let rita = try secret(try token(server, name: "rita", role: "release_manager"))
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/approvals", token: rita, json: #"{"decision":"reject","comment":"focus order"}"#).status == 201)
        let again = try approve(server, rita)
        #expect(again.status == 409)
        #expect(again.json["detail"]?.stringValue?.contains("rejection stands until a new revision") == true)
        #expect(try server.call("POST", "/v1/fixes/\(Self.key)/revise", json: #"{"note":"new build"}"#).status == 200)
        #expect(try approve(server, rita).status == 201)
    }
}
