import Foundation
import Testing
import VouchCrypto
import VouchDomain
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/invitations`: made once the operator is configured, shown once, stored as a hash, listed, revoked; every bad
/// field named (docs/invitations.md).
struct InvitationRoutesTests {
    static func server(operator programmeOperator: ProgrammeOperator = ProgrammeOperator(name: "Example Media Ltd", contact: "privacy@example.com"))
        throws -> InProcessServer {
        var settings = InProcessServer.testSettings()
        settings.programmeOperator = programmeOperator
        return try InProcessServer(settings: settings)
    }

    @Test func anInvitationIsShownOnceAndStoredAsAHash() throws {
        let server = try InvitationRoutesTests.server()
        try server.createChannelSelectorFix()
        let created = try server.call("POST", "/v1/invitations", json: """
            {"fixes":["tv-channel-selector-labels"],"targeting_keys":["user-8841"],"language":"ja","uses":2,"expires_in":"7d",
             "name_hint":"Aiko, support ticket 4411"}
            """)
        #expect(created.status == 201, "\(created.text)")
        let url = try #require(created.json["url"]?.stringValue)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/console/join/"))
        let secret = String(url.split(separator: "/").last ?? "")
        #expect(secret.count == 43)
        let id = try #require(created.json["id"]?.stringValue)
        #expect(created.json["status"]?.stringValue == "active")
        #expect(created.json["language"]?.stringValue == "ja")
        #expect(created.json["uses_allowed"]?.intValue == 2)
        #expect(created.json["uses_made"]?.intValue == 0)
        #expect(created.json["fixes"] == .strings(["tv-channel-selector-labels"]))
        #expect(created.json["targeting_keys"] == .strings(["user-8841"]))

        // Only the hash is kept: the store finds it by the secret's digest, and no answer after this one shows it.
        let stored = try #require(try server.store.invitation(secretSHA256: Digest.sha256(secret)))
        #expect(stored.id == id)
        let shown = try server.call("GET", "/v1/invitations/\(id)")
        #expect(shown.status == 200)
        #expect(shown.json["url"] == nil)
        #expect(!shown.text.contains(secret))
        let listed = try server.call("GET", "/v1/invitations")
        #expect(listed.json["invitations"]?.arrayValue?.count == 1)
        #expect(!listed.text.contains(secret))
        // The audit log names neither the hint nor the bound keys.
        let audit = try server.call("GET", "/v1/audit")
        #expect(audit.text.contains("invitation.create"))
        #expect(!audit.text.contains("Aiko") && !audit.text.contains("user-8841"))

        let service = InvitationService(store: server.store, programmeOperator: ProgrammeOperator(name: "x", contact: "y"), clock: { Date() })
        #expect(try service.opening(secret: secret)?.id == id)
        // Another last character (a secret ending in "x" itself would otherwise be opened by the "changed" one).
        #expect(try service.opening(secret: String(secret.dropLast()) + (secret.hasSuffix("x") ? "y" : "x")) == nil)
    }

    @Test func aRevokedInvitationOpensNothingAndCannotBeRevokedTwice() throws {
        let server = try InvitationRoutesTests.server()
        let created = try server.call("POST", "/v1/invitations", json: "{}")
        #expect(created.status == 201, "\(created.text)")
        #expect(created.json["language"]?.stringValue == "en", "console.default_language")
        #expect(created.json["uses_allowed"]?.intValue == 1)
        let id = try #require(created.json["id"]?.stringValue)
        let secret = String(created.json["url"]?.stringValue?.split(separator: "/").last ?? "")
        let revoked = try server.call("DELETE", "/v1/invitations/\(id)")
        #expect(revoked.status == 200)
        #expect(revoked.json["status"]?.stringValue == "revoked")
        #expect(revoked.json["revoked_by"]?.stringValue == "admin")
        #expect(try server.call("DELETE", "/v1/invitations/\(id)").status == 409)
        #expect(try server.call("DELETE", "/v1/invitations/i_aaaaaaaaaaaaaaaa").status == 404)
        let service = InvitationService(store: server.store, programmeOperator: ProgrammeOperator(name: "x", contact: "y"), clock: { Date() })
        #expect(try service.opening(secret: secret) == nil)
    }

    @Test func invitationsWaitForTheOperator() throws {
        let server = try InvitationRoutesTests.server(operator: ProgrammeOperator(name: "Example Media Ltd", contact: ""))
        let refused = try server.call("POST", "/v1/invitations", json: "{}")
        #expect(refused.status == 409)
        #expect(refused.json["detail"]?.stringValue?.contains("operator.name and operator.contact") == true)
        #expect(try server.store.invitations().isEmpty)
    }

    @Test(arguments: [
        (#"{"language":"fr"}"#, "language"),
        (#"{"uses":0}"#, "uses"),
        (#"{"uses":1001}"#, "uses"),
        (#"{"uses":"two"}"#, "uses"),
        (#"{"expires_in":"30m"}"#, "expires_in"),
        (#"{"expires_in":"91d"}"#, "expires_in"),
        (#"{"fixes":["Not A Key"]}"#, "fixes[0]"),
        (#"{"targeting_keys":[""]}"#, "targeting_keys[0]"),
        (#"{"name_hint":"line\nbreak"}"#, "name_hint"),
        (#"{"panels":"p_x"}"#, "panels"),
        (#"{"groups":["x"]}"#, "groups"),
    ])
    func badFieldsAreNamed(body: String, field: String) throws {
        let server = try InvitationRoutesTests.server()
        let answer = try server.call("POST", "/v1/invitations", json: body)
        #expect(answer.status == 422, "\(body): \(answer.text)")
        #expect(answer.errorFields.contains(field), "\(body): \(answer.errorFields)")
        #expect(try server.store.invitations().isEmpty)
    }

    @Test func anUnknownFixIsNotFoundAndNothingIsStored() throws {
        let server = try InvitationRoutesTests.server()
        let answer = try server.call("POST", "/v1/invitations", json: #"{"fixes":["no-such-fix"]}"#)
        #expect(answer.status == 404)
        #expect(try server.store.invitations().isEmpty)
    }

    @Test func onlyThoseWhoManageTestersInvite() throws {
        let server = try InvitationRoutesTests.server()
        for role in ["sdk", "release_manager"] {
            let token = try server.token(role: role, name: "someone-\(role)")
            #expect(try server.call("POST", "/v1/invitations", token: .some(token), json: "{}").status == 403)
            #expect(try server.call("GET", "/v1/invitations", token: .some(token)).status == 403)
        }
        let maintainer = try server.token(role: "maintainer", name: "mona")
        #expect(try server.call("POST", "/v1/invitations", token: .some(maintainer), json: "{}").status == 201)
    }

    @Test func sheJoinsWithHerOwnConsentAndTheBoundKeysWin() throws {
        let server = try InvitationRoutesTests.server()
        try server.createChannelSelectorFix()
        let created = try server.call("POST", "/v1/invitations", json: #"{"fixes":["tv-channel-selector-labels"],"targeting_keys":["user-8841"],"language":"ja"}"#)
        let secret = String(created.json["url"]?.stringValue?.split(separator: "/").last ?? "")
        let service = InvitationService(store: server.store, programmeOperator: ProgrammeOperator(name: "x", contact: "y"), clock: { Date() })
        let voiceOver = [AssistiveTechProfile(technology: .voiceover, platform: .ios, version: "18.2")]

        // Every bad answer named at once, and nothing stored: no tester, no use counted.
        let bad = InvitationService.Answers(name: "", email: nil, assistiveTech: [], targetingKeys: nil, language: "fr", consentVersion: "2026-12")
        let refusal = try #require(throws: ValidationFailure.self) { try service.accept(secret: secret, bad) }
        #expect(Set(refusal.errors.map(\.field)).isSuperset(of: ["name", "assistive_tech", "language"]), "\(refusal.errors)")
        #expect(try server.store.testers(after: nil, limit: 10).isEmpty)
        #expect(try server.store.invitations().first?.usesMade == 0)

        let answers = InvitationService.Answers(name: "Aiko", email: "aiko@example.jp", assistiveTech: voiceOver, targetingKeys: ["her-own-code"],
                                                language: "ja", consentVersion: "2026-12")
        let joined = try service.accept(secret: secret, answers)
        #expect(joined.tester.targetingKeys == ["user-8841"], "the key the invitation bound, not another")
        #expect(joined.tester.consent.givenBy == .tester && joined.tester.consent.language == "ja")
        #expect(joined.enrolledFixes == ["tv-channel-selector-labels"])
        let shown = try server.call("GET", "/v1/testers/\(joined.tester.id)")
        #expect(shown.json["consent"]?["given_by"]?.stringValue == "tester")
        #expect(shown.json["consent"]?["recorded_by"]?.stringValue == joined.tester.id)
        // Used once, as allowed: the address opens nothing more.
        #expect(throws: InvitationClosed()) { try service.accept(secret: secret, answers) }
        #expect(try server.call("GET", "/v1/invitations").json["invitations"]?.arrayValue?.first?["status"]?.stringValue == "used")
    }

    @Test func statusFollowsUsesExpiryAndRevocation() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var invitation = Invitation(id: "i_a", secretSHA256: [], nameHint: nil, targetingKeys: [], fixKeys: [], language: "en", usesAllowed: 2,
                                    createdBy: "mona", createdAt: now, expiresAt: now.addingTimeInterval(60))
        #expect(invitation.status(at: now) == .active)
        #expect(invitation.status(at: now.addingTimeInterval(60)) == .expired)
        invitation.usesMade = 2
        #expect(invitation.status(at: now) == .used)
        invitation.revokedAt = now
        #expect(invitation.status(at: now) == .revoked)
        #expect(!invitation.opens(at: now))
    }
}
