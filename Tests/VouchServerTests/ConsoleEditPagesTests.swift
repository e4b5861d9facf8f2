import Foundation
import Testing
@testable import VouchConsole
import VouchDomain
@testable import VouchServer
import VouchStore
import VouchTestSupport

/// Editing a tester and a webhook in the console, as the API's PATCH does: the forms start from what is recorded,
/// every bad field is named, and a role without the right is refused.
struct ConsoleEditPagesTests {
    @Test func aMaintainerEditsATesterAndAnEmptiedContactIsCleared() throws {
        let server = try InProcessServer()
        let id = try server.createTester()
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let page = try browser.get("/console/testers/\(id)")
        #expect(page.html.contains("<a href=\"/console/testers/\(id)/edit\">Change the details of Aiko Tanaka</a>"))
        let form = try browser.get("/console/testers/\(id)/edit")
        #expect(form.status == 200)
        #expect(form.html.contains("<title>Change the details of Aiko Tanaka – Vouch</title>"))
        #expect(form.html.contains("value=\"Aiko Tanaka\"") && form.html.contains("<option value=\"voiceover\" selected>"))
        #expect(form.html.contains("user-7</textarea>") && form.html.contains("value=\"v1\""))
        let saved = try browser.submit("/console/testers/\(id)/edit", [
            ("name", "Aiko T."), ("contact", ""), ("email", "aiko@example.com"),
            ("assistive_tech[0].name", "voiceover"), ("assistive_tech[0].platform", "ios"), ("assistive_tech[0].version", "18.3"),
            ("assistive_tech[1].name", "large_text"), ("assistive_tech[1].platform", "ios"), ("assistive_tech[1].version", ""),
            ("assistive_tech[2].name", ""), ("assistive_tech[2].platform", ""), ("assistive_tech[2].version", ""),
            ("targeting_keys", "user-7, user-9"), ("consent", "v1"),
        ])
        #expect(saved.status == 303 && saved.location == "/console/testers/\(id)?done=edited")
        let tester = try #require(try server.store.tester(id))
        #expect(tester.name == "Aiko T." && tester.contact == nil && tester.email == "aiko@example.com")
        #expect(tester.assistiveTech == [AssistiveTechProfile(technology: .voiceover, platform: .ios, version: "18.3"),
                                         AssistiveTechProfile(technology: .largeText, platform: .ios)])
        #expect(tester.targetingKeys == ["user-7", "user-9"])
        #expect(tester.consent.version == "v1" && tester.consent.recordedBy != "mo", "an unchanged version keeps the consent on record")
        #expect(try browser.follow(saved).html.contains("The tester&#39;s details were saved"))
    }

    @Test func aNewConsentVersionNeedsTheBoxAndEveryBadFieldIsNamed() throws {
        let server = try InProcessServer()
        let id = try server.createTester()
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let fields = [("name", "Aiko"), ("contact", ""), ("email", ""), ("assistive_tech[0].name", "voiceover"), ("assistive_tech[0].platform", "ios"),
                      ("assistive_tech[0].version", ""), ("targeting_keys", "user-7")]
        let unconfirmed = try browser.submit("/console/testers/\(id)/edit", fields + [("consent", "v2")])
        #expect(unconfirmed.status == 422)
        #expect(unconfirmed.summaryLinks == ["#field-consent-given"])
        #expect(try server.store.tester(id)?.consent.version == "v1", "nothing changed")
        let bad = try browser.submit("/console/testers/\(id)/edit", [("name", ""), ("contact", ""), ("email", "not an address"),
                                                                     ("assistive_tech[0].name", ""), ("assistive_tech[0].platform", ""),
                                                                     ("targeting_keys", ""), ("consent", "v1")])
        #expect(bad.status == 422)
        #expect(bad.html.contains("<title>Error: Change the details of Aiko Tanaka – Vouch</title>"))
        #expect(bad.summaryLinks == ["#field-name", "#field-email", "#field-assistive-tech-0--name", "#field-targeting-keys"])
        let confirmed = try browser.submit("/console/testers/\(id)/edit", fields + [("consent", "v2"), ("consent_given", "yes")])
        #expect(confirmed.status == 303)
        #expect(try server.store.tester(id)?.consent.version == "v2" && server.store.tester(id)?.consent.recordedBy == "mo")
    }

    @Test func theTesterEditPageInJapaneseAndItsRefusals() throws {
        let server = try InProcessServer()
        let id = try server.createTester()
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let japanese = try browser.get("/console/testers/\(id)/edit", headers: ConsoleLanguageTests.japanese)
        #expect(japanese.html.contains("<html lang=\"ja\">") && japanese.html.contains("Aiko Tanakaさんの情報の変更"))
        #expect(ConsoleLanguageTests.english(in: japanese.html).isEmpty, "\(ConsoleLanguageTests.english(in: japanese.html))")
        let releaseManager = try server.signedInBrowser(role: "release_manager")
        #expect(try releaseManager.get("/console/testers/\(id)/edit").status == 403)
        #expect(try releaseManager.post("/console/testers/\(id)/edit", [("name", "X")]).status == 403)
        _ = try server.call("POST", "/v1/testers/\(id)/withdraw", json: "{}")
        #expect(try browser.get("/console/testers/\(id)/edit").status == 409, "a withdrawn tester has nothing to edit")
    }

    @Test func anAdminChangesAWebhooksAddressAndEventsAndItsSecretStays() throws {
        let receiver = try WebhookReceiver()
        let server = try InProcessServer()
        let created = try server.call("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","events":["fix.created"]}"#)
        let id = try #require(created.json["id"]?.stringValue)
        let secret = try #require(created.json["secret"]?.stringValue)
        let browser = try server.signedInBrowser()
        #expect(try browser.get("/console/webhooks/\(id)").html.contains("<a href=\"/console/webhooks/\(id)/edit\">Change the address or the events</a>"))
        let form = try browser.get("/console/webhooks/\(id)/edit")
        #expect(form.status == 200 && form.html.contains("value=\"\(receiver.url)\""))
        #expect(form.html.contains("value=\"fix.created\" checked") && !form.html.contains("name=\"enabled\""))
        let refused = try browser.submit("/console/webhooks/\(id)/edit", [("url", ""), ("events", "fix.released")])
        #expect(refused.status == 422 && refused.summaryLinks == ["#field-url", "#field-required"])
        let bad = try browser.submit("/console/webhooks/\(id)/edit", [("url", "ftp://example.com/hook"), ("required", "false")])
        #expect(bad.status == 422 && bad.summaryLinks == ["#field-url"])
        let saved = try browser.submit("/console/webhooks/\(id)/edit", [("url", receiver.url + "/v2"), ("events", "fix.released"), ("events", "fix.paused"),
                                                                        ("required", "true")])
        #expect(saved.status == 303 && saved.location == "/console/webhooks/\(id)?done=edited")
        let endpoint = try #require(try server.store.endpoint(id))
        #expect(endpoint.url == receiver.url + "/v2" && endpoint.events == [WebhookEventType.fixReleased, .fixPaused] && endpoint.required && endpoint.enabled)
        #expect(endpoint.secret == secret)
        #expect(try browser.follow(saved).html.contains("The webhook was changed"))
        let japanese = try browser.get("/console/webhooks/\(id)/edit", headers: ConsoleLanguageTests.japanese)
        #expect(japanese.html.contains("送信先またはイベントを変更") == false && japanese.html.contains("の変更"))
        #expect(ConsoleLanguageTests.english(in: japanese.html).isEmpty, "\(ConsoleLanguageTests.english(in: japanese.html))")
        let maintainer = try server.signedInBrowser(role: "maintainer", name: "mo")
        #expect(try maintainer.get("/console/webhooks/\(id)/edit").status == 403)
    }
}
