import Foundation
import Testing
@testable import VouchConsole
import VouchDomain
@testable import VouchServer
import VouchStore

/// Panels in the console: the list, creating one, its members added and removed, and deleting it after a
/// confirmation, as `/v1/panels` does, for those who manage testers only.
struct ConsolePanelPagesTests {
    @Test func aMaintainerMakesAPanelAddsAndRemovesMembersAndDeletesIt() throws {
        let server = try InProcessServer()
        let aiko = try server.createTester()
        let ken = try server.createTester(name: "Ken Sato", keys: ["user-9"], technology: "talkback:android")
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let list = try browser.get("/console/panels")
        #expect(list.status == 200 && list.html.contains("There are no panels yet.") && list.html.contains("href=\"/console/panels\""))
        let empty = try browser.submit("/console/panels/new", [("name", ""), ("description", "")])
        #expect(empty.status == 422 && empty.summaryLinks == ["#field-name"])
        let made = try browser.submit("/console/panels/new", [("name", "VoiceOver on iOS"), ("description", "People who use VoiceOver daily")])
        #expect(made.status == 303)
        let path = String(try #require(made.location).prefix { $0 != "?" })
        let id = String(path.dropFirst("/console/panels/".count))
        let page = try browser.follow(made)
        #expect(page.html.contains("<h1 class=\"heading-l\">VoiceOver on iOS</h1>") && page.html.contains("The panel was created"))
        #expect(page.html.contains("This panel has no members yet."))
        let taken = try browser.submit("/console/panels/new", [("name", "voiceover on ios"), ("description", "")])
        #expect(taken.status == 422 && taken.html.contains("A panel called voiceover on ios exists already"))

        let none = try browser.submit(path + "/members", from: path, [])
        #expect(none.status == 422 && none.summaryLinks == ["#field-testers"])
        let added = try browser.submit(path + "/members", from: path, [("testers", aiko), ("testers", ken)])
        #expect(added.status == 303)
        #expect(try server.store.panel(id)?.members.map(\.testerID).sorted() == [aiko, ken].sorted())
        let withMembers = try browser.follow(added)
        #expect(withMembers.html.contains("The testers were added to the panel") && withMembers.html.contains("Every active tester is in this panel already."))

        let confirm = try browser.get(path + "/members/\(ken)/remove")
        #expect(confirm.html.contains("Take Ken Sato out of VoiceOver on iOS?"))
        #expect(try server.store.panel(id)?.members.count == 2, "the question changes nothing")
        let removed = try browser.submit(path + "/members/\(ken)/remove", [])
        #expect(removed.status == 303)
        #expect(try server.store.panel(id)?.members.map(\.testerID) == [aiko])
        #expect(try browser.get(path + "/members/\(ken)/remove").status == 404)

        let question = try browser.get(path + "/delete")
        #expect(question.html.contains("Delete the panel VoiceOver on iOS?") && question.html.contains("Its members (1) stay testers"))
        let deleted = try browser.submit(path + "/delete", [])
        #expect(deleted.status == 303 && deleted.location == "/console/panels?done=deleted")
        #expect(try server.store.panel(id) == nil && server.store.tester(aiko) != nil)
        #expect(try browser.follow(deleted).html.contains("The panel was deleted"))
    }

    @Test func panelPagesInJapaneseAndRefusedToOtherRoles() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let made = try browser.submit("/console/panels/new", [("name", "VoiceOver on iOS"), ("description", "")])
        let path = String(try #require(made.location).prefix { $0 != "?" })
        for address in ["/console/panels", "/console/panels/new", path, path + "/delete"] {
            let page = try browser.get(address, headers: ConsoleLanguageTests.japanese)
            #expect(page.status == 200 && page.html.contains("<html lang=\"ja\">"))
            #expect(ConsoleLanguageTests.english(in: page.html).isEmpty, "\(address): \(ConsoleLanguageTests.english(in: page.html))")
        }
        let releaseManager = try server.signedInBrowser(role: "release_manager")
        for address in ["/console/panels", "/console/panels/new", path, path + "/delete"] {
            #expect(try releaseManager.get(address).status == 403, "\(address)")
        }
        #expect(try releaseManager.post("/console/panels/new", [("name", "X")]).status == 403)
        #expect(!(try releaseManager.get("/console/").html.contains("href=\"/console/panels\"")))
    }
}
