import Foundation
import Testing
import VouchCrypto
@testable import VouchServer
import VouchStore

/// The maintainers' invitation pages (docs/invitations.md): made with a form whose address is shown once, listed,
/// revoked after a confirmation; in the page's language; refused to roles that do not manage testers.
struct ConsoleInvitationPagesTests {
    @Test func aMaintainerMakesListsAndRevokesAnInvitation() throws {
        let server = try InvitationRoutesTests.server()
        try server.createChannelSelectorFix()
        let panel = try #require(try server.call("POST", "/v1/panels", json: #"{"name":"VoiceOver on iOS"}"#).json["id"]?.stringValue)
        let browser = try server.signedInBrowser(role: "maintainer", name: "maria")
        let form = try browser.get("/console/invitations/new")
        #expect(form.status == 200)
        #expect(form.html.contains("tv-channel-selector-labels") && form.html.contains("VoiceOver on iOS"))
        let refused = try browser.submit("/console/invitations/new", [("uses", "many"), ("expires_in", "14d"), ("language", "ja")])
        #expect(refused.status == 422)
        #expect(refused.html.contains("Enter a whole number from 1 to 1000"))
        let answer = try browser.submit("/console/invitations/new", [("name_hint", "Aiko, ticket 4411"), ("language", "ja"),
                                                                     ("fixes", "tv-channel-selector-labels"), ("panels", panel), ("expires_in", "7d"),
                                                                     ("uses", "2")])
        #expect(answer.status == 303)
        let made = try browser.follow(answer)
        #expect(made.status == 200)
        let secret = try #require(made.html.range(of: "/console/join/").map { String(made.html[$0.upperBound...].prefix { $0.isLetter || $0.isNumber }) })
        let invitation = try #require(try server.store.invitation(secretSHA256: Digest.sha256(secret)))
        #expect(invitation.language == "ja" && invitation.usesAllowed == 2 && invitation.fixKeys == ["tv-channel-selector-labels"])
        #expect(invitation.panelIDs == [panel])
        #expect(invitation.createdBy == "maria")
        let reloaded = try browser.get(try #require(answer.location))
        #expect(reloaded.html.contains("This secret is no longer shown") && !reloaded.html.contains(secret), "a reload shows the address no more")
        #expect(try server.store.invitations().count == 1, "and makes no second invitation")
        let listed = try browser.get("/console/invitations")
        #expect(listed.html.contains("Aiko, ticket 4411") && listed.html.contains("0 of 2"))
        #expect(!listed.html.contains(secret), "the address is shown once")
        let japanese = try browser.get("/console/invitations?lang=ja")
        #expect(japanese.html.contains("<html lang=\"ja\"") && japanese.html.contains("2回中0回"))
        #expect(try browser.submit("/console/invitations/\(invitation.id)/revoke", []).location == "/console/invitations")
        #expect(try server.store.invitation(id: invitation.id)?.revokedBy == "maria")
    }

    @Test func aReleaseManagerMayNotInvite() throws {
        let server = try InvitationRoutesTests.server()
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        #expect(try browser.get("/console/invitations").status == 403)
    }
}
