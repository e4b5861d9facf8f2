import Foundation
import Testing
@testable import VouchConsole
import VouchDomain
@testable import VouchServer
import VouchStore

/// The maintainer's tester pages: the list, adding a tester with consent, a tester's details, personal links shown
/// once, revoking one, and withdrawal on the tester's behalf.
struct ConsoleMaintainerTesterTests {
    static let testerFields = [("name", "Aiko Tanaka"), ("contact", "aiko@example.com"),
                               ("assistive_tech[0].name", "voiceover"), ("assistive_tech[0].platform", "ios"), ("assistive_tech[0].version", "18.2"),
                               ("assistive_tech[1].name", ""), ("assistive_tech[1].platform", ""), ("assistive_tech[1].version", ""),
                               ("assistive_tech[2].name", "braille_display"), ("assistive_tech[2].platform", "ios"), ("assistive_tech[2].version", ""),
                               ("targeting_keys", "user-7\nuser-8"), ("consent", "2026-11")]

    @Test func addingATesterRecordsTheirConsent() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let form = try browser.get("/console/testers/new")
        #expect(form.status == 200)
        #expect(form.html.contains("The tester has given explicit consent to Vouch storing which assistive technology they use (health data)"))
        #expect(form.html.contains("name=\"contact\" type=\"text\" value=\"\" aria-describedby=\"field-contact-hint\" autocomplete=\"off\""))
        #expect(!form.html.contains("checked") && !form.html.contains(" selected"), "nothing is chosen for the maintainer")
        let added = try browser.submit("/console/testers/new", Self.testerFields + [("consent_given", "yes")])
        #expect(added.status == 303)
        let location = try #require(added.location)
        #expect(location.hasPrefix("/console/testers/t_") && location.hasSuffix("?done=created"))
        let id = String(location.dropFirst("/console/testers/".count).prefix { $0 != "?" })
        let tester = try #require(try server.store.tester(id))
        #expect(tester.name == "Aiko Tanaka")
        #expect(tester.contact == "aiko@example.com")
        #expect(tester.assistiveTech == [AssistiveTechProfile(technology: .voiceover, platform: .ios, version: "18.2"),
                                         AssistiveTechProfile(technology: .brailleDisplay, platform: .ios)])
        #expect(tester.targetingKeys == ["user-7", "user-8"])
        #expect(tester.consent.version == "2026-11")
        #expect(tester.consent.recordedBy == "mo")
        let page = try browser.get(location)
        #expect(page.status == 200)
        #expect(page.html.contains("Tester added"))
        #expect(page.html.contains("<h1 class=\"heading-l\">Aiko Tanaka</h1>"))
        #expect(page.html.contains("VoiceOver on iOS, version 18.2"))
        #expect(page.html.contains("Braille display on iOS"))
        #expect(page.html.contains("Consent text version 2026-11, given on"))
    }

    @Test func withoutConsentNoTesterIsAddedAndNothingTypedIsLost() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer")
        let page = try browser.submit("/console/testers/new", Self.testerFields)
        #expect(page.status == 422)
        #expect(page.html.contains("<title>Error: Add a tester – Vouch</title>"))
        #expect(page.summaryLinks == ["#field-consent-given"])
        #expect(page.html.contains("Consent must be confirmed: without the tester&#39;s explicit consent, Vouch cannot keep their details"))
        #expect(page.html.contains("value=\"Aiko Tanaka\""))
        #expect(page.html.contains("<option value=\"braille_display\" selected>"))
        #expect(page.html.contains("user-7\nuser-8</textarea>"))
        #expect(page.html.contains("value=\"2026-11\""))
        #expect(try server.store.testers(after: nil, limit: 10).isEmpty, "no consent, no tester")
    }

    @Test func everyInvalidTesterFieldLinksToItsOwnControl() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer")
        // Only the second row of technologies is filled in, and without its technology: the problem is on that row.
        let page = try browser.submit("/console/testers/new", [("name", ""), ("assistive_tech[1].platform", "android"), ("assistive_tech[1].version", "15"),
                                                               ("targeting_keys", ""), ("consent", ""), ("consent_given", "yes")])
        #expect(page.status == 422)
        #expect(page.summaryLinks == ["#field-name", "#field-assistive-tech-1--name", "#field-targeting-keys", "#field-consent"])
        #expect(page.html.contains("Assistive technology 2 is required: choose one from the list, or empty the whole row"))
        #expect(page.html.contains("<option value=\"android\" selected>"))
        #expect(page.html.contains("value=\"yes\" checked"), "the consent box stays ticked")
        let none = try browser.submit("/console/testers/new", [("name", "Ben"), ("targeting_keys", "user-9"), ("consent", "v1"), ("consent_given", "yes")])
        #expect(none.summaryLinks == ["#field-assistive-tech-0--name"])
        #expect(try server.store.testers(after: nil, limit: 10).isEmpty)
    }

    @Test func aNameWithMarkupIsShownAsText() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer")
        let fields = Self.testerFields.map { $0.0 == "name" ? ("name", "<script>alert(1)</script>") : $0 } + [("consent_given", "yes")]
        let location = try #require(try browser.submit("/console/testers/new", fields).location)
        for page in [try browser.get(location), try browser.get("/console/testers")] {
            #expect(page.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!page.html.contains("<script>"))
        }
        let id = String(location.dropFirst("/console/testers/".count).prefix { $0 != "?" })
        #expect(try browser.get("/console/testers/\(id)/links").location == "/console/testers/\(id)", "a reload by address makes no link")
        #expect(try server.store.testerLinks(of: id).isEmpty)
    }

    @Test func theListShowsTechnologyInWordsAndPages() throws {
        let server = try InProcessServer()
        let first = try server.createTester()
        for index in 1...TesterListPage.pageSize { _ = try server.createTester(name: "Tester \(index)", keys: ["user-\(index)"], technology: "talkback:android:15") }
        let browser = try server.signedInBrowser(role: "maintainer")
        let page = try browser.get("/console/testers")
        #expect(page.status == 200)
        #expect(page.html.contains("<a href=\"/console/testers/new\" class=\"button\">Add a tester</a>"))
        #expect(page.html.contains("<caption class=\"table__caption\">Testers</caption>"))
        #expect(page.html.components(separatedBy: "<tr>").count - 2 == TesterListPage.pageSize, "one page, and the head row")
        let next = try #require(page.html.range(of: "<a href=\"/console/testers?after=")).upperBound
        let after = String(page.html[next...].prefix { $0 != "\"" })
        let second = try browser.get("/console/testers?after=\(after)")
        #expect(second.html.components(separatedBy: "<tr>").count - 2 == 1)
        #expect(!second.html.contains("Next page"))
        let all = page.html + second.html
        #expect(all.contains("<a href=\"/console/testers/\(first)\">Aiko Tanaka</a>"))
        #expect(all.contains("VoiceOver on iOS, version 18.2"))
        #expect(all.contains("TalkBack on Android, version 15"))
        #expect(all.contains("<strong class=\"tag tag--good\">Active</strong>"))
    }

    @Test func aPersonalLinkIsShownOnceAndSignsTheTesterIn() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let browser = try server.signedInBrowser(role: "maintainer")
        let page = try browser.get("/console/testers/\(tester)")
        #expect(page.html.contains("No personal link yet."))
        #expect(page.html.contains("name=\"valid_for\" type=\"radio\" value=\"7d\""))
        #expect(!page.html.contains("checked"))
        let unchosen = try browser.submit("/console/testers/\(tester)/links", from: "/console/testers/\(tester)", [])
        #expect(unchosen.status == 422)
        #expect(unchosen.html.contains("<title>Error: Aiko Tanaka – Vouch</title>"))
        #expect(unchosen.summaryLinks == ["#field-valid-for"])

        let answer = try browser.submit("/console/testers/\(tester)/links", from: "/console/testers/\(tester)", [("valid_for", "7d")])
        #expect(answer.status == 303, "shown behind a redirect, so a reload repeats a GET, never the POST")
        let created = try browser.follow(answer)
        #expect(created.status == 200)
        #expect(created.headers["cache-control"] == "no-store")
        #expect(created.html.contains("Personal link created"))
        #expect(created.html.contains("it will not be shown again"))
        #expect(created.html.contains("by a channel only they read, such as an email or a direct message"))
        let url = try #require(created.secretText)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/console/link/"))
        let path = String(url.dropFirst("http://127.0.0.1:\(server.port)".count))
        let secret = String(path.dropFirst("/console/link/".count))

        let later = try browser.get("/console/testers/\(tester)")
        #expect(!later.html.contains(secret), "the address is never shown again")
        let reloaded = try browser.get(try #require(answer.location))
        #expect(reloaded.html.contains("This secret is no longer shown") && !reloaded.html.contains(secret), "not even by a reload")
        #expect(try server.store.testerLinks(of: tester).count == 1, "which makes no second link")
        #expect(later.html.contains("<strong class=\"tag tag--good\">Active</strong>"))
        let link = try #require(try server.store.testerLinks(of: tester).first)
        #expect(abs(link.expiresAt.timeIntervalSince(link.createdAt) - 7 * 86_400) < 1)

        let testerBrowser = ConsoleBrowser(port: server.port)
        #expect(try testerBrowser.openLink(path).location == "/console/welcome")
        #expect(try testerBrowser.get("/console/").html.contains("Your fixes"))
    }

    @Test func revokingALinkAsksFirstThenEndsItsSession() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let link = try server.personalLink(for: tester)
        let testerBrowser = ConsoleBrowser(port: server.port)
        _ = try testerBrowser.openLink(link.path)
        let browser = try server.signedInBrowser(role: "maintainer")
        let page = try browser.get("/console/testers/\(tester)")
        #expect(page.html.contains("Revoke<span class=\"visually-hidden\"> personal link \(link.id)</span>"))
        let confirm = try browser.get("/console/testers/\(tester)/links/\(link.id)/revoke")
        #expect(confirm.status == 200)
        #expect(confirm.html.contains("<h1 class=\"heading-l\">Revoke link \(link.id) of Aiko Tanaka?</h1>"))
        #expect(confirm.html.contains("class=\"button button--warning\">Revoke link</button>"))
        let revoked = try browser.submit("/console/testers/\(tester)/links/\(link.id)/revoke", [])
        #expect(revoked.location == "/console/testers/\(tester)?done=revoked")
        #expect(try browser.get(try #require(revoked.location)).html.contains("Personal link revoked"))
        #expect(try testerBrowser.get("/console/").status == 303, "her session ended with the link")
        #expect(try browser.get("/console/testers/\(tester)/links/\(link.id)/revoke").status == 409)
        #expect(try browser.get("/console/testers/\(tester)/links/l_unknown/revoke").status == 404)
    }

    @Test func withdrawingOnTheTestersBehalfErasesTheirData() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let tester = try server.createTester()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(tester)"]}"#)
        let browser = try server.signedInBrowser(role: "maintainer")
        #expect(try browser.get("/console/testers/\(tester)").html.contains("<a href=\"/console/fixes/tv-channel-selector-labels\">Label channel logos</a>"))
        let confirm = try browser.get("/console/testers/\(tester)/withdraw")
        #expect(confirm.html.contains("<h1 class=\"heading-l\">Withdraw Aiko Tanaka?</h1>"))
        #expect(confirm.html.contains("You cannot undo this."))
        #expect(!confirm.html.contains("checked"), "deleting feedback is never the default")
        let withdrawn = try browser.submit("/console/testers/\(tester)/withdraw", [])
        #expect(withdrawn.location == "/console/testers/\(tester)?done=withdrawn")
        let stored = try #require(try server.store.tester(tester))
        #expect(stored.status == .withdrawn && stored.name == nil && stored.assistiveTech.isEmpty)
        #expect(try server.store.enrollments(of: "tv-channel-selector-labels").isEmpty)
        let page = try browser.get(try #require(withdrawn.location))
        #expect(page.html.contains("Tester withdrawn"))
        #expect(page.html.contains("<h1 class=\"heading-l\">Withdrawn tester</h1>"))
        #expect(!page.html.contains("Aiko"))
        #expect(!page.html.contains("Create a personal link"))
        #expect(try browser.get("/console/testers/\(tester)/withdraw").status == 409)
    }

    @Test func onlyPeopleWhoManageTestersReachThesePages() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let link = try server.personalLink(for: tester)
        let forms = ["/console/testers/new", "/console/testers/\(tester)/withdraw", "/console/testers/\(tester)/links/\(link.id)/revoke",
                     "/console/testers/\(tester)/links"]
        let pages = ["/console/testers", "/console/testers/\(tester)"] + forms.dropLast()
        let releaseManager = try server.signedInBrowser(role: "release_manager", name: "rita")
        let csrf = try #require(try releaseManager.get("/console/").csrf)
        for path in pages {
            let page = try releaseManager.get(path)
            #expect(page.status == 403, "\(path)")
            #expect(!page.html.contains("Aiko"), "\(path)")
        }
        for path in forms {
            #expect(try releaseManager.post(path, [("csrf", csrf)] + Self.testerFields + [("consent_given", "yes"), ("valid_for", "7d")]).status == 403, "\(path)")
        }
        let herself = try server.testerBrowser(tester)
        #expect(try herself.get("/console/testers/\(tester)").status == 403, "a tester sees her data on her own pages")
        #expect(try server.store.testers(after: nil, limit: 10).count == 1)
        #expect(try server.store.testerLinks(of: tester).count == 2, "hers and the test's own; none made by the release manager")
        #expect(try server.store.testerLinks(of: tester).allSatisfy { $0.revokedAt == nil })

        let maintainer = try server.signedInBrowser(role: "maintainer")
        #expect(try maintainer.post("/console/testers/new", Self.testerFields + [("consent_given", "yes")]).status == 403, "no CSRF token")
        #expect(try maintainer.post("/console/testers/\(tester)/withdraw", [("csrf", "forged")]).status == 403)
        #expect(try maintainer.post("/console/testers/\(tester)/links", [("valid_for", "7d")]).status == 403)
        #expect(try server.store.testers(after: nil, limit: 10).count == 1)
        #expect(try server.store.tester(tester)?.isActive == true)
        #expect(try maintainer.get("/console/testers/t_unknown").status == 404)
    }
}
