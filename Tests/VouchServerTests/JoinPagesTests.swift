import Foundation
import Testing
import VouchDomain
import VouchJSON
@testable import VouchServer
import VouchServices
import VouchStore

/// Joining through an invitation in the console (docs/invitations.md, "Joining"): opening it keeps nothing, she agrees
/// by a POST, answers one question per page, joins with her own consent and is signed in; stopping keeps nothing.
struct JoinPagesTests {
    /// A server with an operator, and an invitation's path into one of its fixes.
    static func invitation(_ body: String = #"{"fixes":["tv-channel-selector-labels"],"language":"ja"}"#) throws -> (InProcessServer, String) {
        let server = try InvitationRoutesTests.server()
        try server.createChannelSelectorFix()
        let created = try server.call("POST", "/v1/invitations", json: body)
        let url = try #require(created.json["url"]?.stringValue, "\(created.text)")
        return (server, String(url[url.range(of: "/console/join/")!.lowerBound...]))
    }

    /// Opens the invitation and agrees; returns the first question's page.
    static func agree(_ browser: ConsoleBrowser, _ path: String, language: String? = nil) throws -> ConsoleBrowser.Page {
        let consent = try browser.get(path + (language.map { "?lang=" + $0 } ?? ""))
        #expect(consent.status == 200)
        let agreed = try browser.post(path, [("csrf", try #require(consent.csrf)), ("language", language ?? "ja")])
        #expect(agreed.status == 303)
        return try browser.get(try #require(agreed.location))
    }

    /// Sends one question page's answers with the page's tokens.
    static func answer(_ browser: ConsoleBrowser, _ page: ConsoleBrowser.Page, _ step: String, _ fields: [(String, String)]) throws -> ConsoleBrowser.Page {
        let token = try #require(ConsoleBrowser.hiddenValue("join_token", in: page.html))
        return try browser.post("/console/joining/" + step, [("csrf", try #require(page.csrf)), ("join_token", token)] + fields)
    }

    @Test func openingTheInvitationShowsTheConsentTextInItsLanguageAndKeepsNothing() throws {
        let (server, path) = try JoinPagesTests.invitation()
        let browser = ConsoleBrowser(port: server.port)
        let page = try browser.get(path)
        #expect(page.status == 200)
        #expect(page.html.contains("<html lang=\"ja\""))
        #expect(page.html.contains("Example Media Ltd"))
        #expect(page.html.contains("privacy@example.com"))
        #expect(page.html.contains("同意して進む"))
        #expect(browser.cookies["vouch_console"] == nil && browser.cookies["vouch_join"] == nil)
        let english = try browser.get(path + "?lang=en")
        #expect(english.html.contains("<html lang=\"en\""))
        #expect(english.html.contains("Who runs this testing programme"))
        #expect(try server.store.agreedConsentTexts().isEmpty)
        #expect(try server.store.invitations().first?.usesMade == 0)
    }

    @Test func sheJoinsWithHerOwnConsentIsEnrolledAndSignedIn() throws {
        let (server, path) = try JoinPagesTests.invitation()
        let browser = ConsoleBrowser(port: server.port)
        var page = try JoinPagesTests.agree(browser, path)
        #expect(page.html.contains("どのようにお呼びすればよいですか"))
        // A missing name is named on the page, in Japanese, and nothing is lost.
        page = try JoinPagesTests.answer(browser, page, "name", [("name", "")])
        #expect(page.status == 422)
        #expect(page.html.contains("お呼びするお名前を入力してください"))
        var next = try JoinPagesTests.answer(browser, page, "name", [("name", "花子")])
        #expect(next.location == "/console/joining/email")
        page = try browser.get("/console/joining/email")
        next = try JoinPagesTests.answer(browser, page, "email", [("email", "hana@example.com")])
        page = try browser.get(try #require(next.location))
        // A browser is named on the web only.
        page = try JoinPagesTests.answer(browser, page, "assistive-technology", [("assistive_tech[0].name", "voiceover"),
                                                                                 ("assistive_tech[0].platform", "ios"),
                                                                                 ("assistive_tech[0].browser", "safari")])
        #expect(page.status == 422)
        #expect(page.html.contains("ブラウザーは、プラットフォームがウェブのときだけ選んでください"))
        next = try JoinPagesTests.answer(browser, page, "assistive-technology", [("assistive_tech[0].name", "voiceover"),
                                                                                 ("assistive_tech[0].platform", "ios"), ("assistive_tech[0].version", "18.2"),
                                                                                 ("assistive_tech[1].name", "nvda"), ("assistive_tech[1].platform", "web"),
                                                                                 ("assistive_tech[1].browser", "firefox")])
        #expect(next.location == "/console/joining/tester-code")
        page = try browser.get("/console/joining/tester-code")
        next = try JoinPagesTests.answer(browser, page, "tester-code", [("tester_code", "user-8841")])
        page = try browser.get(try #require(next.location))
        next = try JoinPagesTests.answer(browser, page, "language", [("language", "ja")])
        #expect(next.location == "/console/joining/check")
        page = try browser.get("/console/joining/check")
        #expect(page.html.contains("花子") && page.html.contains("NVDA、ウェブ、Firefox"))
        #expect(try server.store.testers(after: nil, limit: 10).isEmpty, "nothing is a tester before she joins")

        let joined = try JoinPagesTests.answer(browser, page, "check", [])
        #expect(joined.status == 200)
        #expect(joined.html.contains("参加しました"))
        #expect(joined.html.contains("/console/link/"))
        #expect(!joined.html.contains("language-switcher"), "a link shown once offers no way to lose it")
        #expect(browser.cookies["vouch_join"] == nil)
        let tester = try #require(try server.store.testers(after: nil, limit: 10).first)
        #expect(tester.consent.givenBy == .tester)
        #expect(tester.consent.recordedBy == tester.id)
        #expect(tester.consent.language == "ja")
        #expect(tester.consent.version == "2026-12")
        #expect(tester.targetingKeys == ["user-8841"])
        #expect(tester.assistiveTech == [AssistiveTechProfile(technology: .voiceover, platform: .ios, version: "18.2"),
                                         AssistiveTechProfile(technology: .nvda, platform: .web, browser: .firefox)])
        #expect(try server.store.enrollments(of: "tv-channel-selector-labels").map(\.testerID) == [tester.id])
        // Signed in as on a personal link: her home page, in her language.
        let home = try browser.get("/console/")
        #expect(home.status == 200)
        #expect(home.html.contains("<html lang=\"ja\""))
        // The text she read is kept and retrievable by version and language.
        let text = try server.call("GET", "/v1/consent-texts/2026-12/ja")
        #expect(text.status == 200)
        #expect(text.json["first_agreed_at"]?.stringValue != nil)
        #expect(text.json["text"]?.stringValue?.contains("Example Media Ltdが運営し") == true)
        #expect(try server.store.invitations().first?.usesMade == 1)
        // Her personal link, shown once, opens her session on another device.
        let linkPath = try #require(joined.html.range(of: "/console/link/").map { start in
            String(joined.html[start.lowerBound...].prefix { $0 != "<" && $0 != "\"" })
        })
        #expect(try ConsoleBrowser(port: server.port).openLink(linkPath).status == 303)
        // Her data page says the consent is hers and shows the text she read, word for word.
        let data = try browser.get("/console/my-data")
        #expect(data.html.contains("日本語で読んでご自身で同意しました"))
        #expect(data.html.contains("ウェブ の NVDA（Firefox）") || data.html.contains("の NVDA（Firefox）"))
        let agreedText = try browser.get("/console/my-data/consent")
        #expect(agreedText.status == 200)
        #expect(agreedText.html.contains("Example Media Ltdが運営し"))
    }

    @Test func stoppingHalfWayDeletesHerAnswersAndKeepsNothingThatNamesHer() throws {
        let (server, path) = try JoinPagesTests.invitation()
        let browser = ConsoleBrowser(port: server.port)
        let page = try JoinPagesTests.agree(browser, path)
        _ = try JoinPagesTests.answer(browser, page, "name", [("name", "Hanako Yamada")])
        let stopped = try browser.post("/console/joining/stop", [("csrf", try #require(page.csrf)),
                                                               ("join_token", try #require(ConsoleBrowser.hiddenValue("join_token", in: page.html)))])
        #expect(stopped.location == "/console/joining/declined?lang=ja")
        #expect(try server.store.deleteExpiredJoinDrafts(at: Date().addingTimeInterval(86_400)) == 0, "her draft was still there")
        #expect(try server.store.testers(after: nil, limit: 10).isEmpty)
        #expect(try server.store.invitations().first?.usesMade == 0)
        #expect(try browser.get("/console/joining/email").html.contains("回答はもう残っていません"))
        let audit = try server.call("GET", "/v1/audit")
        #expect(!audit.text.contains("Hanako"))
    }

    @Test func keysTheInvitationBoundAreNotAskedFor() throws {
        let (server, path) = try JoinPagesTests.invitation(#"{"targeting_keys":["user-8841"],"language":"en"}"#)
        let browser = ConsoleBrowser(port: server.port)
        var page = try JoinPagesTests.agree(browser, path, language: "en")
        #expect(page.html.contains("What name should we use for you?"))
        _ = try JoinPagesTests.answer(browser, page, "name", [("name", "Aiko")])
        page = try browser.get("/console/joining/email")
        _ = try JoinPagesTests.answer(browser, page, "email", [("email", "")])
        page = try browser.get("/console/joining/assistive-technology")
        let next = try JoinPagesTests.answer(browser, page, "assistive-technology", [("assistive_tech[0].name", "talkback"),
                                                                                     ("assistive_tech[0].platform", "android")])
        #expect(next.location == "/console/joining/language")
        #expect(try browser.get("/console/joining/tester-code").location == "/console/joining/check", "no such step here: on to what is left")
        page = try browser.get("/console/joining/language")
        _ = try JoinPagesTests.answer(browser, page, "language", [("language", "en")])
        page = try browser.get("/console/joining/check")
        #expect(try JoinPagesTests.answer(browser, page, "check", []).status == 200)
        let tester = try #require(try server.store.testers(after: nil, limit: 10).first)
        #expect(tester.targetingKeys == ["user-8841"])
        #expect(tester.contact == nil)
    }

    @Test func aClosedInvitationOpensNothingAndAFormFromElsewhereIsRefused() throws {
        let (server, path) = try JoinPagesTests.invitation()
        let browser = ConsoleBrowser(port: server.port)
        let consent = try browser.get(path)
        // Without the form's own cookie (another site's form), agreeing is refused.
        let stranger = ConsoleBrowser(port: server.port)
        #expect(try stranger.post(path, [("csrf", try #require(consent.csrf)), ("language", "ja")]).status == 403)
        let id = try #require(try server.store.invitations().first?.id)
        #expect(try server.call("DELETE", "/v1/invitations/\(id)").status == 200)
        #expect(try browser.get(path).status == 410)
        #expect(try ConsoleBrowser(port: server.port).get("/console/join/unknownsecret").status == 410)
        #expect(try browser.post(path, [("csrf", try #require(consent.csrf)), ("language", "ja")]).status == 410)
        #expect(try server.store.agreedConsentTexts().isEmpty)
    }

    @Test func guessedInvitationAddressesAreBlockedLikeGuessedLinks() throws {
        let (server, _) = try JoinPagesTests.invitation()
        let browser = ConsoleBrowser(port: server.port)
        var statuses: [Int] = []
        for index in 0..<25 { statuses.append(try browser.get("/console/join/guess\(index)").status) }
        #expect(statuses.contains(429), "\(statuses)")
        #expect(statuses.prefix(3).allSatisfy { $0 == 410 })
    }

    @Test func aPageOfAnotherDraftIsRefused() throws {
        let (server, path) = try JoinPagesTests.invitation(#"{"language":"en","uses":2}"#)
        let hers = ConsoleBrowser(port: server.port)
        let page = try JoinPagesTests.agree(hers, path, language: "en")
        let other = ConsoleBrowser(port: server.port)
        _ = try JoinPagesTests.agree(other, path, language: "en")
        // Her page's token sent with the other browser's draft changes nothing there.
        let refused = try JoinPagesTests.answer(other, page, "name", [("name", "Mallory")])
        #expect(refused.status == 403)
    }
}
