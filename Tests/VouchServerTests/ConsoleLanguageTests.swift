import Foundation
import Testing
@testable import VouchServer

/// The tester's and the staff's pages in Japanese and English: how a request's language is chosen, `<html lang>` and the
/// switcher on every page, no English of the catalog left on a page in Japanese, and the English that is not the
/// catalog's (the services' prose, a fix's English title) marked as English (docs/console.md, "Languages").
struct ConsoleLanguageTests {
    static let japanese = [("Accept-Language", "ja-JP,ja;q=0.9,en;q=0.5")]

    /// Names that are the same in every language, and so may appear on a Japanese page.
    static let names: Set<String> = ["Vouch", "VoiceOver", "TalkBack"]

    /// The pieces of each English catalog text between its placeholders, four characters or longer.
    static let englishTexts: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Catalogs/en.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var pieces: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.range(of: " = ") else { continue }
            // Text between placeholders: the part of each piece after a "}", if it has one.
            for piece in line[equals.upperBound...].split(separator: "{", omittingEmptySubsequences: false).map({ $0.split(separator: "}", maxSplits: 1, omittingEmptySubsequences: false).last ?? "" }) {
                let trimmed = piece.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
                if trimmed.count >= 4, !names.contains(trimmed) { pieces.insert(trimmed) }
            }
        }
        return pieces.sorted()
    }()

    /// The English catalog texts a page says, as whole words: in its text or in the attributes a screen reader reads
    /// (not in names such as `os_version` or `fix.created`, nor in "TalkBack", which holds "Back"). None on a page in Japanese.
    static func english(in html: String) -> [String] {
        let said = said(in: html)
        return englishTexts.filter { text in
            said.ranges(of: text).contains { range in
                let before = range.lowerBound == said.startIndex ? nil : said[said.index(before: range.lowerBound)]
                let after = range.upperBound == said.endIndex ? nil : said[range.upperBound]
                // A letter, or a '.' or '_' joining it to one, makes it part of a longer word or a name (`fix.created`).
                func joins(_ character: Character?) -> Bool { character.map { $0.isLetter || $0 == "." || $0 == "_" } ?? false }
                return !joins(before) && !joins(after)
            }
        }
    }

    /// The page's text without its tags, then the values of its `aria-label`, `title` and `alt` attributes. An element
    /// marked `lang="en"` is left out: a screen reader reads it in an English voice, as it should.
    static func said(in html: String) -> String {
        var text = "", labels: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open] + " "
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[open...close]
            if tag.contains(" lang=\"en\""), let name = tag.dropFirst().split(whereSeparator: { $0 == " " || $0 == ">" }).first,
               let end = rest[close...].ranges(of: "</\(name)>").first {
                rest = rest[end.upperBound...]
                continue
            }
            for name in ["aria-label=\"", "title=\"", "alt=\""] {
                guard let start = tag.ranges(of: name).first?.upperBound, let end = tag[start...].firstIndex(of: "\"") else { continue }
                labels.append(String(tag[start..<end]))
            }
            rest = rest[rest.index(after: close)...]
        }
        return (text + rest + " " + labels.joined(separator: " ")).replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func theCheckReadsWhatAPageSaysAsWholeWords() {
        #expect(Self.english(in: "<p>Use TalkBack</p>") == [])
        #expect(Self.english(in: "<p>fix.created</p>") == [], "an event's name")
        #expect(Self.english(in: "<input name=\"os_version\">") == [])
        #expect(Self.english(in: "<p>戻る</p><a href=\"/\">Back</a>") == ["Back"])
        #expect(Self.english(in: "<nav aria-label=\"Language\"></nav>") == ["Language"])
        #expect(Self.english(in: "<p>I can&#39;t tell</p>") == ["I can't tell"])
        #expect(Self.english(in: "<p lang=\"en\">Your fixes</p><p>試す修正</p>") == [], "marked as English")
    }

    static func expectJapanese(_ page: ConsoleBrowser.Page, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect([200, 404, 422].contains(page.status), "\(path): \(page.status)", sourceLocation: sourceLocation)
        #expect(page.html.contains("<html lang=\"ja\">"), "\(path)", sourceLocation: sourceLocation)
        #expect(page.html.contains("lang=\"ja\" hreflang=\"ja\" aria-current=\"true\">日本語</a>"), "\(path)", sourceLocation: sourceLocation)
        #expect(page.html.contains("lang=\"en\" hreflang=\"en\">English</a>"), "\(path)", sourceLocation: sourceLocation)
        #expect(english(in: page.html).isEmpty, "\(path) shows English: \(english(in: page.html))", sourceLocation: sourceLocation)
    }

    /// The form at `path`, then the form sent empty: both in Japanese, the second refused with 422.
    static func formAndItsRefusal(_ browser: ConsoleBrowser, _ path: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws -> (csrf: String, refused: ConsoleBrowser.Page) {
        let form = try browser.get(path, headers: japanese)
        expectJapanese(form, path, sourceLocation: sourceLocation)
        let csrf = try #require(form.csrf, sourceLocation: sourceLocation)
        let refused = try browser.post(path, [("csrf", csrf)], headers: japanese)
        #expect(refused.status == 422, "\(path)", sourceLocation: sourceLocation)
        expectJapanese(refused, "\(path), sent empty", sourceLocation: sourceLocation)
        return (csrf, refused)
    }

    @Test func theCatalogIsReadForTheCheck() {
        #expect(Self.englishTexts.contains("Your fixes"))
        #expect(Self.englishTexts.contains("Continue as"))
        #expect(!Self.englishTexts.contains("Vouch"))
    }

    @Test func everyTranslatedTesterPageIsWhollyJapaneseForABrowserThatAsksForIt() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        _ = try journey.send(try journey.answerEverything())
        for path in ["/console/", journey.path(), "/console/my-feedback", "/console/my-data", "/console/my-data/withdraw"] {
            Self.expectJapanese(try journey.browser.get(path, headers: Self.japanese), path)
        }
        let fix = try journey.browser.get(journey.path(), headers: Self.japanese)
        #expect(fix.html.contains("<title>Label channel logos – Vouch</title>"))
        #expect(fix.html.contains("答えは「はい、うまく動きます」でした。"))
        #expect(fix.html.contains("画像、ロゴ、アイコンが、何を表すかを言葉で読み上げます"))
        #expect(fix.html.contains("<a href=\"/console/\" class=\"back-link\">試す修正の一覧に戻る</a>"))
        let data = try journey.browser.get("/console/my-data", headers: Self.japanese)
        #expect(data.html.contains("<dt class=\"summary-list__key\">支援技術</dt>"))
        #expect(data.html.contains("iOS の VoiceOver、バージョン 18.2"))
        #expect(data.html.contains("1 件"))
        #expect(data.html.contains("<a href=\"/console/my-feedback\">送ったフィードバック</a>"), "her navigation is in her language")

        let missing = try journey.browser.get("/console/testing/no-such-fix", headers: Self.japanese)
        #expect(missing.status == 404)
        Self.expectJapanese(missing, "an unknown fix")
        #expect(missing.html.contains("<h1 class=\"heading-l\">ページが見つかりません</h1>"))
        #expect(missing.html.contains("<p class=\"body\" lang=\"en\">There is no fix &#39;no-such-fix&#39; among the fixes you test.</p>"),
                "the services' English prose says it is English")

        let withdrawn = try journey.browser.post("/console/my-data/withdraw", [("csrf", try journey.csrf)], headers: Self.japanese)
        #expect(withdrawn.status == 303)
        Self.expectJapanese(try journey.browser.get("/console/withdrawn", headers: Self.japanese), "/console/withdrawn")
    }

    @Test func theWholeFeedbackJourneyIsJapaneseOnceSheChoosesIt() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        Self.expectJapanese(try journey.browser.get("/console/?lang=ja"), "/console/?lang=ja")
        for (step, fields) in TesterConsoleJourney.iosAnswers {
            Self.expectJapanese(try journey.browser.get(journey.path(step)), step)
            #expect(try journey.answer(step, fields).status == 303, "\(step)")
        }
        let device = try journey.browser.get(journey.path("device"))
        #expect(device.html.contains("<h1 class=\"heading-l\">どの機器で試しましたか</h1>"))
        #expect(device.html.contains(">次へ進む</button>"))
        let empty = try journey.answer("verdict", [])
        Self.expectJapanese(empty, "verdict, sent empty")
        #expect(empty.html.contains("<title>エラー: 修正はうまく動きましたか – Vouch</title>"))
        #expect(empty.html.contains("修正がうまく動いたかどうかを選んでください"))
        // The domain's rule for a failed verdict, said in her language rather than in the API's English.
        #expect(try journey.answer("verdict", [("verdict", "failed")]).status == 303)
        let severity = try journey.answer("severity", [("severity", "minor")])
        Self.expectJapanese(severity, "severity, clashing with a failed verdict")
        #expect(severity.html.contains("修正がうまく動かなかったので、「中くらい」「重い」「致命的」のどれかを選んでください。"))
        #expect(try journey.answer("verdict", [("verdict", "passed")]).status == 303)
        #expect(try journey.answer("severity", [("severity", "minor")]).status == 303)

        let check = try journey.browser.get(journey.path("check"))
        Self.expectJapanese(check, "check")
        #expect(check.html.contains("<dt class=\"summary-list__key\">修正はうまく動いたか</dt>"))
        #expect(check.html.contains(">変更<span class=\"visually-hidden\"> 修正はうまく動いたか</span></a>"))
        #expect(check.html.contains("テスター番号（末尾 \(journey.testerID.suffix(7))）"))
        #expect(try journey.send(check).status == 303)
        let sent = try journey.browser.get(journey.path("sent"))
        Self.expectJapanese(sent, "sent")
        #expect(sent.html.contains("<h1 class=\"heading-l panel__title\">フィードバックを送信しました</h1>"))
        #expect(try journey.storedFeedback().first?["channel"] == "web")
    }

    @Test func thePagesBeforeSigningInAreJapaneseToo() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let testerID = try server.createTester()
        let link = try server.personalLink(for: testerID).path
        let browser = ConsoleBrowser(port: server.port)
        let page = try browser.get(link, headers: Self.japanese)
        Self.expectJapanese(page, "the personal link")
        #expect(page.html.contains("Aiko Tanaka さんとして進む"))
        let opened = try browser.post(link, [("csrf", try #require(page.csrf))], headers: Self.japanese)
        #expect(opened.location == "/console/welcome")
        Self.expectJapanese(try browser.get("/console/welcome", headers: Self.japanese), "/console/welcome")
        #expect(try browser.post("/console/sign-out", [("csrf", try #require(try browser.get("/console/").csrf))]).status == 303)
        Self.expectJapanese(try browser.get("/console/signed-out", headers: Self.japanese), "/console/signed-out")
        Self.expectJapanese(try browser.get("/console/accessibility", headers: Self.japanese), "/console/accessibility")

        let signIn = try browser.get("/console/sign-in", headers: Self.japanese)
        Self.expectJapanese(signIn, "/console/sign-in")
        let refused = try browser.post("/console/sign-in", [("csrf", try #require(signIn.csrf)), ("token", "vch_wrong"), ("next", "")], headers: Self.japanese)
        Self.expectJapanese(refused, "/console/sign-in, refused")
        #expect(refused.html.contains("<title>エラー: サインイン – Vouch</title>"))
        #expect(refused.html.contains("<h2 class=\"error-summary__title\">入力内容に問題があります</h2>"))
        #expect(refused.html.contains("<span class=\"visually-hidden\">エラー:</span> トークンが正しくありません。"))
    }

    @Test func herChoiceOnTheSwitcherIsKeptOverHerBrowsersLanguage() throws {
        let server = try InProcessServer()
        let browser = ConsoleBrowser(port: server.port)
        let japanese = try browser.get("/console/sign-in?next=%2Fconsole%2Fmy-data", headers: Self.japanese)
        #expect(japanese.html.contains("<a href=\"/console/sign-in?next=/console/my-data&amp;lang=en\" lang=\"en\" hreflang=\"en\">English</a>"))
        let chosen = try browser.get("/console/sign-in?next=%2Fconsole%2Fmy-data&lang=en", headers: Self.japanese)
        #expect(chosen.html.contains("<html lang=\"en\">"))
        #expect(chosen.setCookies.contains { $0.hasPrefix("vouch_lang=en; Path=/console/; Max-Age=31536000; HttpOnly; SameSite=Strict") })
        let next = try browser.get("/console/sign-in", headers: Self.japanese)
        #expect(next.html.contains("<html lang=\"en\">"), "the cookie keeps her choice")
        #expect(next.html.contains("hreflang=\"en\" aria-current=\"true\">English</a>"))
        #expect(!next.setCookies.contains { $0.hasPrefix("vouch_lang=") }, "a choice already kept is not set again")
        #expect(try browser.get("/console/sign-in?lang=ja").html.contains("<html lang=\"ja\">"))
        let missing = try browser.get("/console/link/no-such-link?lang=en")
        #expect(missing.status == 404 && missing.html.contains("<html lang=\"en\">"))
        #expect(missing.setCookies.contains { $0.hasPrefix("vouch_lang=en;") }, "a choice made on an error page is kept too")
    }

    @Test func withoutAChoiceOrABrowserLanguageTheSettingDecides() throws {
        var settings = InProcessServer.testSettings()
        settings.console.defaultLanguage = "ja"
        let server = try InProcessServer(settings: settings)
        let browser = ConsoleBrowser(port: server.port)
        #expect(try browser.get("/console/sign-in").html.contains("<html lang=\"ja\">"))
        #expect(try browser.get("/console/sign-in", headers: [("Accept-Language", "en-GB")]).html.contains("<html lang=\"en\">"))
        let plain = try InProcessServer()
        #expect(try ConsoleBrowser(port: plain.port).get("/console/sign-in").html.contains("<html lang=\"en\">"), "English by default")
    }

    @Test func theStaffOverviewAndFixListAreJapaneseForStaffWhoAskForIt() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let browser = try server.signedInBrowser()
        for path in ["/console/", "/console/fixes", "/console/fixes?state=draft", "/console/fixes?state=released", "/console/fixes?state=bogus"] {
            Self.expectJapanese(try browser.get(path, headers: Self.japanese), path)
        }
        let overview = try browser.get("/console/", headers: Self.japanese)
        #expect(overview.html.contains("<h1 class=\"heading-l\">概要</h1>"))
        #expect(overview.html.contains(">1 件<span class=\"visually-hidden\"> 下書き</span></a>"))
        #expect(overview.html.contains("admin（管理者）としてサインイン中"), "the staff navigation is in the page's language")
        let list = try browser.get("/console/fixes", headers: Self.japanese)
        #expect(list.html.contains("<span lang=\"en\">Label channel logos</span></a>"), "the author's English, marked as English")
        #expect(list.html.contains("<caption class=\"table__caption\">すべての修正</caption>") || list.html.contains(">すべての修正</caption>"))
        let english = try browser.get("/console/fixes?lang=en")
        #expect(english.html.contains("<html lang=\"en\">"))
        #expect(english.html.contains(">Label channel logos</a>"), "unmarked on a page in its own language")
    }

    @Test func theFixPageIsJapaneseWithTheEvidencesEnglishProseMarked() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        _ = try journey.send(try journey.answerEverything())
        let browser = try server.signedInBrowser(role: "release_manager", name: "Rei Sato")
        let path = "/console/fixes/\(journey.fixKey)"
        let page = try browser.get(path, headers: Self.japanese)
        Self.expectJapanese(page, path)
        #expect(page.html.contains("<h1 class=\"heading-l\"><span lang=\"en\">Label channel logos</span></h1>"))
        #expect(page.html.contains("<h2 class=\"heading-m\">昇格の基準</h2>"))
        #expect(page.html.contains("<caption class=\"table__caption\">リビジョン 1 に対するテスターごとの最新フィードバック</caption>"))
        #expect(page.html.contains("<span lang=\"en\">"), "the evaluator's sentences are marked as English")
        #expect(page.html.contains(">承認または却下<span class=\"visually-hidden\"> （修正「<span lang=\"en\">Label channel logos</span>」）</span></a>"))
        for done in ["approved", "created", "started", "paused", "promoted"] {
            Self.expectJapanese(try browser.get(path + "?done=" + done, headers: Self.japanese), "\(path)?done=\(done)")
        }
        let english = try browser.get(path + "?lang=en")
        #expect(english.html.contains("<h2 class=\"heading-m\">Promotion criteria</h2>"))
        #expect(english.html.contains("<dt class=\"summary-list__key\">Written in</dt>"))
    }

    @Test func decidingOnAFixAndTheReleaseActionsAreJapaneseToo() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        _ = try journey.send(try journey.answerEverything())
        let browser = try server.signedInBrowser(role: "release_manager", name: "Rei Sato")
        let fix = "/console/fixes/\(journey.fixKey)"
        let form = try browser.get(fix + "/decision", headers: Self.japanese)
        Self.expectJapanese(form, "the decision form")
        #expect(form.html.contains("合格 1 件、不合格 0 件、判断できない 0 件"))
        let csrf = try #require(form.csrf)
        let evidence = try #require(form.html.ranges(of: "name=\"evidence\" value=\"").first.map { range in
            String(form.html[range.upperBound...].prefix { $0 != "\"" })
        })
        let empty = try browser.post(fix + "/decision", [("csrf", csrf), ("evidence", evidence), ("comment", ""), ("step", "check")], headers: Self.japanese)
        #expect(empty.status == 422)
        Self.expectJapanese(empty, "the decision form sent empty")
        #expect(empty.html.contains("修正を承認するか却下するかを選んでください"))
        let confirm = try browser.post(fix + "/decision", [("csrf", csrf), ("evidence", evidence), ("decision", "approve"), ("comment", ""),
                                                          ("step", "check")], headers: Self.japanese)
        Self.expectJapanese(confirm, "the approval's confirmation")
        #expect(confirm.html.contains("<span lang=\"en\">Label channel logos</span>（リビジョン 1）を承認しますか"))
        #expect(confirm.html.contains("または 7 日 が過ぎたとき"), "the approval's expiry in Japanese units")
        let reject = try browser.post(fix + "/decision", [("csrf", csrf), ("evidence", evidence), ("decision", "reject"), ("comment", "読み上げが違う"),
                                                         ("step", "check")], headers: Self.japanese)
        Self.expectJapanese(reject, "the rejection's confirmation")
        for action in ["pause", "rollback", "promote", "resume", "retry-promotion"] {
            Self.expectJapanese(try browser.get(fix + "/" + action, headers: Self.japanese), action)
        }
        #expect(try server.call("POST", "/v1/fixes/\(journey.fixKey)/pause").status == 200)
        Self.expectJapanese(try browser.get(fix + "/resume", headers: Self.japanese), "resume, paused")
        #expect(try browser.get(fix + "/resume", headers: Self.japanese).html.contains("修正は「テスト中」に戻り、フラグは再び登録済みのテスターと"))
        let english = try browser.get(fix + "/pause?lang=en")
        #expect(english.html.contains("<h1 class=\"heading-l\">Pause Label channel logos?</h1>"))
    }

    @Test func creatingEditingAndMovingAFixIsJapaneseForAMaintainer() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer", name: "Mei Ito")
        let (csrf, empty) = try Self.formAndItsRefusal(browser, "/console/new-fix")
        let created = try browser.post("/console/new-fix", [("csrf", csrf), ("key", "menu-fix"), ("title", "メニューの読み上げ"),
                                                              ("ui_area", "メインメニュー"), ("platforms", "ios"), ("language", "ja")], headers: Self.japanese)
        #expect(created.location == "/console/fixes/menu-fix?done=created")
        #expect(try server.call("GET", "/v1/fixes/menu-fix").json["language"]?.stringValue == "ja", "the form's language is stored")
        for path in ["/console/fixes/menu-fix?done=created", "/console/fixes/menu-fix/edit", "/console/fixes/menu-fix/start",
                     "/console/fixes/menu-fix/revise", "/console/fixes/menu-fix/abandon"] {
            Self.expectJapanese(try browser.get(path, headers: Self.japanese), path)
        }
        let start = try browser.get("/console/fixes/menu-fix/start", headers: Self.japanese)
        #expect(start.html.contains("<h1 class=\"heading-l\">メニューの読み上げ のテストを開始しますか</h1>"))
        #expect(start.html.contains("テスター 0 人"))
        let revise = try browser.post("/console/fixes/menu-fix/revise", [("csrf", csrf), ("note", "")], headers: Self.japanese)
        #expect(revise.status == 422)
        Self.expectJapanese(revise, "a revision without its note")
        #expect(try browser.post("/console/fixes/menu-fix/abandon", [("csrf", csrf)]).status == 303)
        let refused = try browser.get("/console/fixes/menu-fix/start", headers: Self.japanese)
        Self.expectJapanese(refused, "starting an abandoned fix")
        #expect(refused.html.contains("現在、この修正のテストは開始できません"))
        let english = try browser.get("/console/fixes/menu-fix/edit?lang=en")
        #expect(english.html.contains("<h1 class=\"heading-l\">Edit fix: <span lang=\"ja\">メニューの読み上げ</span></h1>"))
        #expect(english.html.contains("name=\"language\" type=\"radio\" value=\"ja\" checked"), "the fix's language, chosen")
        #expect(empty.html.contains("「タイトル」を確認してください： <span lang=\"en\">must not be empty</span>"), "the service's English, marked as English")
    }

    @Test func aFixsTestersAndDirectTargetsAreJapaneseToo() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        _ = try server.createTester()
        let browser = try server.signedInBrowser(role: "maintainer", name: "Mei Ito")
        let fix = "/console/fixes/\(journey.fixKey)"
        let page = try browser.get(fix + "/enrollments", headers: Self.japanese)
        for path in [fix + "/enrollments", fix + "/enrollments?done=enrolled", fix + "/enrollments/\(journey.testerID)/remove",
                     fix + "/targets", fix + "/targets?done=added"] {
            Self.expectJapanese(try browser.get(path, headers: Self.japanese), path)
        }
        #expect(page.html.contains("iOS の VoiceOver"), "a candidate's assistive technology in Japanese")
        let csrf = try #require(page.csrf)
        let none = try browser.post(fix + "/enrollments", [("csrf", csrf)], headers: Self.japanese)
        #expect(none.status == 422)
        Self.expectJapanese(none, "enrolling nobody")
        let added = try browser.post(fix + "/targets", [("csrf", csrf), ("add", "qa-iphone-15")], headers: Self.japanese)
        #expect(added.status == 303)
        let targets = try browser.get(fix + "/targets", headers: Self.japanese)
        Self.expectJapanese(targets, "targets with a key")
        #expect(targets.html.contains("qa-iphone-15"))
        let bad = try browser.post(fix + "/targets", [("csrf", csrf), ("add", String(repeating: "k", count: 600))], headers: Self.japanese)
        #expect(bad.status == 422)
        Self.expectJapanese(bad, "a targeting key the service refuses")
    }

    @Test func theTestersAndATestersPageAreJapaneseToo() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let browser = try server.signedInBrowser(role: "maintainer", name: "Mei Ito")
        let tester = "/console/testers/\(journey.testerID)"
        for path in ["/console/testers", "/console/testers/new", tester, tester + "?done=created", tester + "?done=revoked", tester + "/withdraw"] {
            Self.expectJapanese(try browser.get(path, headers: Self.japanese), path)
        }
        let page = try browser.get(tester, headers: Self.japanese)
        #expect(page.html.contains("<span lang=\"en\">Label channel logos</span></a>"), "her fix's English title, marked")
        #expect(page.html.contains("iOS の VoiceOver、バージョン 18.2"))
        let unchosen = try browser.post(tester + "/links", [("csrf", try #require(page.csrf))], headers: Self.japanese)
        #expect(unchosen.status == 422)
        Self.expectJapanese(unchosen, "a personal link without its length")
        #expect(unchosen.html.contains("リンクの有効期間を選んでください"))
        let empty = try browser.post("/console/testers/new", [("csrf", try #require(page.csrf))], headers: Self.japanese)
        #expect(empty.status == 422)
        Self.expectJapanese(empty, "the new tester's form sent empty")
        #expect(empty.html.contains("「同意」を確認してください："))
        let made = try browser.post(tester + "/links", [("csrf", try #require(page.csrf)), ("valid_for", "7d")], headers: Self.japanese)
        let link = try browser.get(try #require(made.location), headers: Self.japanese)
        #expect(link.html.contains("<html lang=\"ja\">"))
        #expect(Self.english(in: link.html).isEmpty, "\(Self.english(in: link.html))")
        #expect(!link.html.contains("language-switcher"), "a link shown once offers no way to lose it")
        #expect(link.html.contains("<h1 class=\"heading-l\">Aiko Tanaka の個人用リンク</h1>"))
        let linkID = try #require(try server.call("GET", "/v1/testers/\(journey.testerID)/links").json["links"]?.arrayValue?.last?["id"]?.stringValue)
        Self.expectJapanese(try browser.get(tester + "/links/\(linkID)/revoke", headers: Self.japanese), "revoking a link")
        #expect(try browser.post(tester + "/withdraw", [("csrf", try #require(page.csrf))]).status == 303)
        let withdrawn = try browser.get(tester + "?done=withdrawn", headers: Self.japanese)
        Self.expectJapanese(withdrawn, "a withdrawn tester")
        #expect(withdrawn.html.contains("<h1 class=\"heading-l\">参加をやめたテスター</h1>"))
    }

    @Test func theTokensAreJapaneseForAnAdministrator() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let list = try browser.get("/console/tokens", headers: Self.japanese)
        Self.expectJapanese(list, "/console/tokens")
        Self.expectJapanese(try browser.get("/console/tokens?done=revoked", headers: Self.japanese), "/console/tokens?done=revoked")
        let (csrf, empty) = try Self.formAndItsRefusal(browser, "/console/tokens/new")
        #expect(empty.html.contains("トークンでできることを選んでください"))
        let answer = try browser.post("/console/tokens/new", [("csrf", csrf), ("name", "ios-app"), ("role", "sdk")], headers: Self.japanese)
        #expect(answer.status == 303)
        let created = try browser.get(try #require(answer.location), headers: Self.japanese)
        #expect(created.status == 200)
        let gone = try browser.get(try #require(answer.location), headers: Self.japanese)
        #expect(gone.html.contains("このシークレットはもう表示されません"))
        #expect(Self.english(in: gone.html).isEmpty, "\(Self.english(in: gone.html))")
        #expect(created.html.contains("<html lang=\"ja\">"))
        #expect(Self.english(in: created.html).isEmpty, "\(Self.english(in: created.html))")
        #expect(!created.html.contains("language-switcher"), "a secret shown once offers no way to lose it")
        let tokens = try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue ?? []
        let id = try #require(tokens.first { $0["name"]?.stringValue == "ios-app" }?["id"]?.stringValue)
        let revoke = try browser.get("/console/tokens/\(id)/revoke", headers: Self.japanese)
        Self.expectJapanese(revoke, "revoking a token")
        #expect(revoke.html.contains("このトークンを使うアプリはフラグを読めなくなり"))
    }

    @Test func theWebhooksAreJapaneseForAnAdministrator() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser()
        let (csrf, empty) = try Self.formAndItsRefusal(browser, "/console/webhooks/new")
        #expect(empty.html.contains("Webhook の URL を https:// か http:// から入力してください"))
        let made = try server.call("POST", "/v1/webhooks", json: #"{"url":"http://127.0.0.1:9/first","required":true}"#)
        let id = try #require(made.json["id"]?.stringValue)
        #expect(try browser.post("/console/webhooks/\(id)/test", [("csrf", csrf)]).status == 303)
        for path in ["/console/webhooks", "/console/webhooks?done=deleted", "/console/webhooks/\(id)", "/console/webhooks/\(id)?done=tested",
                     "/console/webhooks/\(id)?status=pending", "/console/webhooks/\(id)/disable", "/console/webhooks/\(id)/delete"] {
            Self.expectJapanese(try browser.get(path, headers: Self.japanese), path)
        }
        let page = try browser.get("/console/webhooks/\(id)", headers: Self.japanese)
        #expect(page.html.contains("テストイベント"))
        let english = try browser.get("/console/webhooks/\(id)?lang=en")
        #expect(english.html.contains("<h1 class=\"heading-l\">Webhook to http://127.0.0.1:9/first</h1>"))
    }

    @Test func theFixsLanguageIsShownAndMarkedOnPagesInTheOtherLanguage() throws {
        let server = try InProcessServer()
        let made = try server.call("POST", "/v1/fixes", json: #"{"key":"menu-fix","title":"メニューの読み上げ","ui_area":"メインメニュー","platforms":["ios"],"language":"ja"}"#)
        #expect(made.status == 201)
        let browser = try server.signedInBrowser()
        let fix = try browser.get("/console/fixes/menu-fix?lang=en")
        #expect(fix.html.contains("<h1 class=\"heading-l\"><span lang=\"ja\">メニューの読み上げ</span></h1>"), "the author's Japanese, marked")
        #expect(fix.html.contains("<span lang=\"ja\">メインメニュー</span>"))
        #expect(fix.html.contains("<span lang=\"ja\">日本語</span>"), "the language it is written in, named in itself")
        let japanese = try browser.get("/console/fixes/menu-fix?lang=ja")
        #expect(japanese.html.contains("<h1 class=\"heading-l\">メニューの読み上げ</h1>"), "unmarked on a page in its own language")
    }

    @Test func aTestersPageMarksTheFixsWordsWithTheLanguageTheyAreWrittenIn() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let japanese = try journey.browser.get(journey.path(), headers: Self.japanese)
        #expect(japanese.html.contains("<h1 class=\"heading-l\"><span lang=\"en\">Label channel logos</span></h1>"))
        #expect(japanese.html.contains("<span lang=\"en\">TV channel selector</span>"))
        #expect(japanese.html.contains("“<span lang=\"en\">NHK, button, selected</span>”"))
        let english = try journey.browser.get(journey.path() + "?lang=en")
        #expect(english.html.contains("<h1 class=\"heading-l\">Label channel logos</h1>"))
        #expect(!english.html.contains("<span lang=\"en\">"))
    }

    /// Orca heard a Japanese question about "TV channel selector" with no switch to English (docs/screen-reader-tests.md).
    @Test func aQuestionNamingTheFixsUIAreaMarksTheAreaWithItsLanguage() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let task = try journey.browser.get(journey.path("task"), headers: Self.japanese)
        #expect(task.html.contains("<h1 class=\"heading-l\">「<span lang=\"en\">TV channel selector</span>」で"))
        #expect(task.html.contains("<title>「TV channel selector」で"), "a title holds no markup")
        let english = try journey.browser.get(journey.path("task") + "?lang=en")
        #expect(english.html.contains("<h1 class=\"heading-l\">Could you do what you set out to do in the TV channel selector?</h1>"))
    }

    /// Orca read the banner's title "Success" in English on a Japanese page (docs/screen-reader-tests.md).
    @Test func theBannerBeforeAPagesHeadingIsTitledInThePagesLanguage() throws {
        let server = try InProcessServer()
        #expect(try server.call("POST", "/v1/fixes", json: #"{"key":"menu-fix","title":"Menu labels","ui_area":"Main menu","platforms":["ios"]}"#).status == 201)
        let browser = try server.signedInBrowser()
        let japanese = try browser.get("/console/fixes/menu-fix?done=edited", headers: Self.japanese)
        #expect(japanese.html.contains("<h2 class=\"banner__title\" id=\"banner-title\">完了</h2>"))
        #expect(!japanese.html.contains(">Success<"))
        let english = try browser.get("/console/fixes/menu-fix?done=edited&lang=en")
        #expect(english.html.contains("<h2 class=\"banner__title\" id=\"banner-title\">Success</h2>"))
    }
}
