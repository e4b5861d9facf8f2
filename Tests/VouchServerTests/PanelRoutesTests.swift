import Foundation
import Testing
import VouchDomain
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/panels` and enrolling a panel in a fix: made with a unique name, members added and taken out, enrolled as they
/// are, joined through an invitation; every bad field named, and only those who manage testers reach them
/// (docs/invitations.md, "Panels").
struct PanelRoutesTests {
    func tester(_ server: InProcessServer, _ key: String) throws -> String {
        let body = #"{"name":"Tester \#(key)","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["\#(key)"],"consent":"2026-11"}"#
        return try #require(try server.call("POST", "/v1/testers", json: body).json["id"]?.stringValue)
    }

    func panel(_ server: InProcessServer, _ name: String) throws -> String {
        let created = try server.call("POST", "/v1/panels", json: #"{"name":"\#(name)"}"#)
        #expect(created.status == 201, "\(created.text)")
        return try #require(created.json["id"]?.stringValue)
    }

    @Test func aPanelIsMadeListedChangedAndDeleted() throws {
        let server = try InProcessServer()
        let (aiko, ben) = (try tester(server, "user-1"), try tester(server, "user-2"))
        let created = try server.call("POST", "/v1/panels", json: #"{"name":"  VoiceOver on iOS ","description":"iPhone users\nevery day"}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json["id"]?.stringValue)
        #expect(id.hasPrefix("p_") && id.count == 14)
        #expect(created.json["name"]?.stringValue == "VoiceOver on iOS")
        #expect(created.json["description"]?.stringValue == "iPhone users\nevery day")
        #expect(created.json["created_by"]?.stringValue == "admin")
        #expect(created.json["members"] == .array([]))
        let twice = try server.call("POST", "/v1/panels", json: #"{"name":"voiceover on ios"}"#)
        #expect(twice.status == 409, "\(twice.text)")

        let added = try server.call("POST", "/v1/panels/\(id)/members", json: #"{"testers":["\#(aiko)","\#(ben)"]}"#)
        #expect(added.status == 200, "\(added.text)")
        #expect(added.json["added"] == .strings([aiko, ben]))
        #expect(added.json["members"]?.arrayValue?.count == 2)
        // Her export says which panels she is in.
        let export = try server.call("GET", "/v1/testers/\(ben)/export")
        #expect(export.json["panels"]?.arrayValue?.map { $0["name"]?.stringValue } == ["VoiceOver on iOS"], "\(export.text)")
        let listed = try server.call("GET", "/v1/panels")
        #expect(listed.json["panels"]?.arrayValue?.map { $0["id"]?.stringValue } == [id])
        #expect(listed.json["next_cursor"] == .null)

        let removed = try server.call("DELETE", "/v1/panels/\(id)/members/\(aiko)")
        #expect(removed.status == 200)
        #expect(removed.json["members"]?.arrayValue?.compactMap { $0["tester"]?.stringValue } == [ben])
        #expect(try server.call("DELETE", "/v1/panels/\(id)/members/\(aiko)").status == 404, "she is not in it any more")
        #expect(try server.call("GET", "/v1/panels/\(id)").json["members"]?.arrayValue?.count == 1)

        let deleted = try server.call("DELETE", "/v1/panels/\(id)")
        #expect(deleted.status == 200 && deleted.json["name"]?.stringValue == "VoiceOver on iOS")
        #expect(try server.call("GET", "/v1/panels/\(id)").status == 404)
        #expect(try server.call("DELETE", "/v1/panels/\(id)").status == 404)
        // The audit log names her pseudonym, never her name.
        let audit = try server.call("GET", "/v1/audit")
        #expect(audit.text.contains("panel.create") && audit.text.contains("panel.member_add") && audit.text.contains("panel.delete"))
        #expect(!audit.text.contains("Tester user-"))
    }

    @Test(arguments: [
        ("/v1/panels", "{}", ["name"]),
        ("/v1/panels", #"{"name":"   "}"#, ["name"]),
        ("/v1/panels", #"{"name":"\#(String(repeating: "a", count: 101))"}"#, ["name"]),
        ("/v1/panels", #"{"name":"a\nb","description":7,"size":1}"#, ["name", "description", "size"]),
        ("/v1/panels/{id}/members", "{}", ["testers"]),
        ("/v1/panels/{id}/members", #"{"testers":[]}"#, ["testers"]),
        ("/v1/panels/{id}/members", #"{"testers":["t_nobody"]}"#, ["testers[0]"]),
        ("/v1/fixes/tv-channel-selector-labels/enrollments", "{}", ["testers"]),
        ("/v1/fixes/tv-channel-selector-labels/enrollments", #"{"panels":[]}"#, ["panels"]),
        ("/v1/fixes/tv-channel-selector-labels/enrollments", #"{"panels":["p_nobody"],"testers":["t_nobody"]}"#, ["testers[0]", "panels[0]"]),
    ])
    func badFieldsAreNamed(path: String, body: String, fields: [String]) throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let id = try panel(server, "Braille")
        let answer = try server.call("POST", path.replacingOccurrences(of: "{id}", with: id), json: body)
        #expect(answer.status == 422, "\(body): \(answer.text)")
        #expect(Set(answer.errorFields) == Set(fields), "\(body): \(answer.text)")
        #expect(try server.store.panels().count == 1 && server.store.panels()[0].members.isEmpty)
        #expect(try server.store.enrollments(of: "tv-channel-selector-labels").isEmpty)
    }

    @Test func enrollingAPanelEnrollsItsMembersWhoHaveNotWithdrawn() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let (aiko, ben, gone) = (try tester(server, "user-1"), try tester(server, "user-2"), try tester(server, "user-3"))
        let id = try panel(server, "VoiceOver on iOS")
        try server.call("POST", "/v1/panels/\(id)/members", json: #"{"testers":["\#(aiko)","\#(gone)"]}"#)
        #expect(try server.call("POST", "/v1/testers/\(gone)/withdraw", json: "{}").status == 200)
        let enrolled = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(ben)"],"panels":["\#(id)"]}"#)
        #expect(enrolled.status == 200, "\(enrolled.text)")
        #expect(enrolled.json["added"] == .strings([ben, aiko]))
        #expect(Set(enrolled.json["enrollments"]?.arrayValue?.compactMap { $0["tester"]?.stringValue } ?? []) == [aiko, ben])
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-1").json["value"] == .bool(true))
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "user-3").json["value"] == .bool(false))
    }

    @Test func anInvitationAddsHerToItsPanels() throws {
        var settings = InProcessServer.testSettings()
        settings.programmeOperator = ProgrammeOperator(name: "Example Media Ltd", contact: "privacy@example.com")
        let server = try InProcessServer(settings: settings)
        let id = try panel(server, "VoiceOver on iOS")
        let missing = try server.call("POST", "/v1/invitations", json: #"{"panels":["p_nobody"]}"#)
        #expect(missing.status == 404, "\(missing.text)")
        #expect(try server.store.invitations().isEmpty)
        let created = try server.call("POST", "/v1/invitations", json: #"{"panels":["\#(id)","\#(id)"]}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.json["panels"] == .strings([id]))
        let secret = String(created.json["url"]?.stringValue?.split(separator: "/").last ?? "")
        let service = InvitationService(store: server.store, programmeOperator: settings.programmeOperator, clock: { Date() })
        let answers = InvitationService.Answers(name: "Aiko", email: nil, assistiveTech: [AssistiveTechProfile(technology: .voiceover, platform: .ios)],
                                                targetingKeys: ["user-1"], language: "en", consentVersion: "2026-12")
        let joined = try service.accept(secret: secret, answers)
        #expect(joined.joinedPanels == [id])
        #expect(try server.call("GET", "/v1/panels/\(id)").json["members"]?.arrayValue?.first?["tester"]?.stringValue == joined.tester.id)
    }

    @Test func onlyThoseWhoManageTestersReachPanels() throws {
        let server = try InProcessServer()
        let id = try panel(server, "Braille")
        for role in ["sdk", "release_manager"] {
            let token = try server.token(role: role, name: "someone-\(role)")
            #expect(try server.call("GET", "/v1/panels", token: .some(token)).status == 403)
            #expect(try server.call("GET", "/v1/panels/\(id)", token: .some(token)).status == 403)
            #expect(try server.call("POST", "/v1/panels", token: .some(token), json: #"{"name":"x"}"#).status == 403)
        }
        let maintainer = try server.token(role: "maintainer", name: "mona")
        #expect(try server.call("POST", "/v1/panels", token: .some(maintainer), json: #"{"name":"Switch Control"}"#).status == 201)
        #expect(try server.call("DELETE", "/v1/panels/\(id)", token: .some(maintainer)).status == 200)
    }
}
