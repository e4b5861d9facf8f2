import Foundation
import Testing
import VouchCrypto
import VouchJSON
@testable import VouchServer
import VouchStore

/// The tester's console pages through HTTP as a browser sends them: what to try, the feedback questions, the check
/// page and the send, her feedback, her data and her withdrawal.
struct ConsoleTesterTests {
    @Test func aWholeFeedbackJourneyRecordsWebFeedbackAsHer() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let home = try journey.browser.get("/console/")
        #expect(home.html.contains("href=\"/console/testing/\(TesterConsoleJourney.key)\""))
        #expect(home.html.contains("Waiting for your feedback"))

        let start = try journey.browser.get(journey.path())
        #expect(start.status == 200)
        #expect(start.html.contains("<title>Label channel logos – Vouch</title>"))
        #expect(start.html.contains("TV channel selector"))
        #expect(start.html.contains("“NHK, button, selected”"))
        // What the fix should make better, from its criteria (1.1.1 and 4.1.2), in words: no WCAG numbers on her pages.
        #expect(start.html.contains("Pictures, logos and icons are read out in words that say what they are"))
        #expect(start.html.contains("Each control says its name, what kind of control it is and its state"))
        #expect(!start.html.contains("1.1.1") && !start.html.contains("4.1.2") && !start.html.contains("WCAG"))
        #expect(start.html.contains("href=\"\(journey.path("device"))\" class=\"button\""))

        let device = try journey.browser.get(journey.path("device"))
        #expect(device.status == 200)
        #expect(device.html.contains("<h1 class=\"heading-l\">Which device did you test on?</h1>"))
        #expect(device.html.contains("Platform: iOS"), "one platform: not asked")
        #expect(device.html.contains("href=\"\(journey.path())\" class=\"back-link\""))
        #expect(try journey.answer("device", TesterConsoleJourney.iosAnswers[0].fields).location == journey.path("assistive-technology"))

        // Her profile says VoiceOver 18.2 on iOS: chosen and filled in, which she may change (WCAG 3.3.7).
        let technology = try journey.browser.get(journey.path("assistive-technology"))
        #expect(technology.html.contains("value=\"voiceover\" checked"))
        #expect(technology.html.contains("name=\"at_version\" type=\"text\" value=\"18.2\""))
        #expect(technology.html.contains("<legend class=\"fieldset__legend fieldset__legend--heading\"><h1 class=\"heading-l\">Which assistive technology did you use?</h1></legend>"))

        let verdict = try journey.browser.get(journey.path("verdict"))
        #expect(verdict.html.contains("<h1 class=\"heading-l\">Did the fix work?</h1>"))
        #expect(!verdict.html.contains("checked"), "no answer is chosen for her")
        #expect(verdict.html.contains("I can&#39;t tell"))
        #expect(verdict.html.contains("href=\"\(journey.path("assistive-technology"))\" class=\"back-link\""))

        let check = try journey.answerEverything()
        #expect(check.status == 200)
        #expect(check.html.contains("<h1 class=\"heading-l\">Check your answers before sending</h1>"))
        for words in ["iOS 18.2", "5.12 (2041)", "VoiceOver", "Yes, it works", "Yes, with a workaround", "Minor: an annoyance", "NHK, button",
                      "Some issues, but usable.", "Does not apply"] {
            #expect(check.html.contains(words), "\(words)")
        }
        #expect(check.html.contains("href=\"\(journey.path("verdict"))?from=check\">Change<span class=\"visually-hidden\"> did the fix work</span></a>"))
        let key = try #require(ConsoleBrowser.hiddenValue("idempotency_key", in: check.html))

        let sent = try journey.send(check)
        #expect(sent.status == 303)
        #expect(sent.location == journey.path("sent"))
        let confirmation = try journey.browser.get(journey.path("sent"))
        #expect(confirmation.status == 200)
        #expect(confirmation.html.contains("<h1 class=\"heading-l panel__title\">Feedback sent</h1>"))
        #expect(confirmation.html.contains("What happens next"))

        let stored = try journey.storedFeedback()
        #expect(stored.count == 1)
        #expect(stored.first?["tester"] == journey.testerID)
        #expect(stored.first?["recorded_by"] == journey.testerID, "her pseudonym, never her name")
        #expect(stored.first?["channel"] == "web")
        #expect(stored.first?["comment"] == "Some issues, but usable.")
        // The reference is the feedback's id, said short: she only needs to recognise it.
        let reference = try #require(stored.first?["id"])
        #expect(confirmation.html.contains("Your reference<br><strong>ending \(reference.suffix(7))</strong>"))
        #expect(!confirmation.html.contains(reference))
        #expect(stored.first?["os_version"] == "18.2", "she typed iOS 18.2; the platform is not stored twice")
        // The answers are gone from the store; only the key and the reference stay.
        let cookie = try #require(journey.browser.cookies["vouch_console"])
        let draft = try #require(try server.store.consoleDraft(session: Digest.sha256(cookie), fix: TesterConsoleJourney.key))
        #expect(draft.contains(key) && !draft.contains("usable"))
        #expect(try journey.browser.get("/console/").html.contains("Feedback sent"))
        #expect(try journey.browser.get(journey.path()).html.contains("You sent feedback on this version"))
    }

    @Test func missingOrWrongAnswersShowTheErrorStateAndKeepWhatSheEntered() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let device = try journey.answer("device", [("os_version", "iOS 18.2"), ("app_build", ""), ("device", "iPhone 15")])
        #expect(device.status == 422)
        #expect(device.html.contains("<title>Error: Which device did you test on? – Vouch</title>"))
        #expect(device.html.contains("<a href=\"#field-app-build\">Enter the version or build of the app</a>"))
        #expect(device.html.contains("id=\"field-app-build-error\""))
        #expect(device.html.contains("value=\"iOS 18.2\"") && device.html.contains("value=\"iPhone 15\""), "her other answers stay")

        let long = try journey.answer("device", [("os_version", String(repeating: "x", count: 65)), ("app_build", "5.12")])
        #expect(long.status == 422)
        #expect(long.html.contains("Operating system version must be at most 64 characters, got 65"))

        let verdict = try journey.answer("verdict", [])
        #expect(verdict.status == 422)
        #expect(verdict.html.contains("<a href=\"#field-verdict\">Select whether the fix worked</a>"))
        // Values no page offers, as a hand-made form sends them, are refused on their field.
        let madeUp = try journey.answer("verdict", [("verdict", "great")])
        #expect(madeUp.status == 422 && madeUp.html.contains("Did the fix work: &#39;great&#39; is not allowed; allowed: passed, failed, cant_tell"))
        #expect(try journey.answer("regression", [("regression", "maybe")]).html.contains("<a href=\"#field-regression\">Select whether anything else stopped working</a>"))

        // The domain's rule, said on the page it concerns: a failed verdict needs a moderate problem or worse.
        #expect(try journey.answer("verdict", [("verdict", "failed")]).status == 303)
        let severity = try journey.answer("severity", [("severity", "minor")])
        #expect(severity.status == 422)
        #expect(severity.html.contains("A failed verdict needs severity moderate, serious or critical, got minor"))
        #expect(severity.html.contains("value=\"minor\" checked"))

        // Every answer was kept through the errors: going back shows them.
        let back = try journey.browser.get(journey.path("device"))
        #expect(back.html.contains("value=\"5.12\""))
        #expect(try journey.browser.get(journey.path("verdict")).html.contains("value=\"failed\" checked"))
    }

    @Test func aChangeLinkReturnsToTheCheckPage() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        _ = try journey.answerEverything()
        let change = try journey.browser.get(journey.path("verdict") + "?from=check")
        #expect(change.html.contains("value=\"passed\" checked"))
        #expect(change.html.contains("href=\"\(journey.path("check"))\" class=\"back-link\""))
        #expect(change.html.contains("action=\"\(journey.path("verdict"))?from=check\""))
        let changed = try journey.answer("verdict", [("verdict", "cant_tell")], changing: true)
        #expect(changed.status == 303)
        #expect(changed.location == journey.path("check"))
        let check = try journey.browser.get(journey.path("check"))
        #expect(check.html.contains("I can&#39;t tell") && !check.html.contains("Yes, it works"))

        // A change that clashes with an earlier answer shows that answer's page and why.
        let clash = try journey.answer("verdict", [("verdict", "failed")], changing: true)
        #expect(clash.status == 422)
        #expect(clash.html.contains("How bad is the worst problem that is left?"))
        #expect(clash.html.contains("action=\"\(journey.path("severity"))?from=check\""))
        #expect(try journey.answer("severity", [("severity", "serious")], changing: true).location == journey.path("check"))
    }

    @Test func switchingToTheWebAsksForTheBrowserBeforeTheCheck() throws {
        let server = try InProcessServer()
        let fix = #"{"key":"player-controls","title":"Label the player's controls","ui_area":"Video player","platforms":["ios","web"]}"#
        #expect(try server.call("POST", "/v1/fixes", json: fix).status == 201)
        try server.call("POST", "/v1/fixes/player-controls/start")
        let journey = try TesterConsoleJourney(server, fixKey: "player-controls")
        let missing = try journey.answer("device", [("os_version", "iOS 18.2"), ("app_build", "5.12")])
        #expect(missing.html.contains("<a href=\"#field-platform\">Select the platform you tested on</a>"))
        let unshipped = try journey.answer("device", [("platform", "android"), ("os_version", "Android 15"), ("app_build", "5.12")])
        #expect(unshipped.status == 422 && unshipped.html.contains("<a href=\"#field-platform\">Select the platform you tested on</a>"))
        #expect(try journey.answer("device", [("platform", "ios"), ("os_version", "iOS 18.2"), ("app_build", "5.12")]).location == journey.path("assistive-technology"))
        for (step, fields) in TesterConsoleJourney.iosAnswers.dropFirst() { try journey.answer(step, fields) }
        #expect(try journey.browser.get(journey.path("check")).status == 200)
        let web = try journey.answer("device", [("platform", "web"), ("os_version", "Windows 11"), ("app_build", "web-1")], changing: true)
        #expect(web.location == journey.path("browser") + "?from=check")
        let browserPage = try journey.browser.get(journey.path("browser") + "?from=check")
        #expect(!browserPage.html.contains("checked") && !browserPage.html.contains("Error:"))
        #expect(try journey.answer("browser", [("browser", "firefox"), ("browser_version", "133")], changing: true).location == journey.path("check"))
        let check = try journey.browser.get(journey.path("check"))
        #expect(check.html.contains("Firefox"))
        #expect(try journey.send(check).location == journey.path("sent"))
        #expect(try journey.storedFeedback().first?["browser"] == "firefox")
    }

    @Test func sendingTheSameCheckFormTwiceRecordsOneFeedback() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let check = try journey.answerEverything()
        let cookie = try #require(journey.browser.cookies["vouch_console"])
        let unsent = try #require(try server.store.consoleDraft(session: Digest.sha256(cookie), fix: TesterConsoleJourney.key))
        #expect(try journey.send(check).location == journey.path("sent"))
        #expect(try journey.send(check).location == journey.path("sent"), "the second send lands on the confirmation")
        // Two sends at the same instant both read the unsent answers: the API replays the first for the second.
        try server.store.saveConsoleDraft(session: Digest.sha256(cookie), fix: TesterConsoleJourney.key, answers: unsent, at: Date())
        #expect(try journey.send(check).location == journey.path("sent"))
        #expect(try journey.storedFeedback().count == 1)
        // With the answers gone altogether, a late send records nothing and shows the fix.
        try server.store.deleteConsoleDraft(session: Digest.sha256(cookie), fix: TesterConsoleJourney.key)
        #expect(try journey.send(check).location == journey.path())
        #expect(try journey.storedFeedback().count == 1)
    }

    @Test func herAnswersSurviveAFixThatStopsTakingFeedback() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let check = try journey.answerEverything()
        try server.call("POST", "/v1/fixes/\(TesterConsoleJourney.key)/pause")
        let refused = try journey.send(check)
        #expect(refused.status == 409)
        #expect(refused.html.contains("Your answers so far are kept"))
        let closed = try journey.browser.get(journey.path())
        #expect(closed.status == 200)
        #expect(closed.html.contains("Feedback is closed") && !closed.html.contains("Give feedback"))
        #expect(try journey.browser.get(journey.path("verdict")).status == 409)
        try server.call("POST", "/v1/fixes/\(TesterConsoleJourney.key)/resume")
        #expect(try journey.browser.get(journey.path()).html.contains("Continue giving feedback"))
        #expect(try journey.send(try journey.browser.get(journey.path("check"))).location == journey.path("sent"))
        #expect(try journey.storedFeedback().count == 1)
    }

    @Test func fixesSheDoesNotTestAreNotFound() throws {
        let server = try InProcessServer()
        let aiko = try TesterConsoleJourney(server)
        let other = #"{"key":"checkout-labels","title":"Label the checkout","ui_area":"Checkout","platforms":["web"]}"#
        #expect(try server.call("POST", "/v1/fixes", json: other).status == 201)
        try server.call("POST", "/v1/fixes/checkout-labels/start")
        let noor = try TesterConsoleJourney(server, fixKey: "checkout-labels", name: "Noor", keys: ["web-user-1"])
        for path in ["/console/testing/checkout-labels", "/console/testing/checkout-labels/feedback/verdict", "/console/testing/checkout-labels/feedback/check",
                     "/console/testing/no-such-fix", "/console/testing/\(TesterConsoleJourney.key)/feedback/no-such-step"] {
            let page = try aiko.browser.get(path)
            #expect(page.status == 404, "\(path)")
            #expect(page.html.contains("Page not found"))
        }
        #expect(try aiko.browser.post("/console/testing/checkout-labels/feedback/verdict", [("csrf", try aiko.csrf), ("verdict", "passed")]).status == 404)
        #expect(try noor.browser.get(noor.path()).status == 200)
        #expect(try noor.browser.get(aiko.path()).status == 404)
    }

    @Test func staffCannotOpenTesterPages() throws {
        let server = try InProcessServer()
        _ = try TesterConsoleJourney(server)
        let admin = try server.signedInBrowser()
        for path in ["/console/testing/\(TesterConsoleJourney.key)", "/console/my-feedback", "/console/my-data", "/console/my-data/export"] {
            let page = try admin.get(path)
            #expect(page.status == 403, "\(path)")
            #expect(page.html.contains("is for testers"))
        }
        let anonymous = try ConsoleBrowser(port: server.port).get("/console/my-data")
        #expect(anonymous.status == 303 && anonymous.location == "/console/sign-in?next=/console/my-data")
    }

    @Test func formsWithoutTheSessionsCSRFTokenChangeNothing() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let check = try journey.answerEverything()
        let key = try #require(ConsoleBrowser.hiddenValue("idempotency_key", in: check.html))
        #expect(try journey.browser.post(journey.path("check"), [("idempotency_key", key)]).status == 403)
        #expect(try journey.browser.post(journey.path("verdict"), [("csrf", "forged"), ("verdict", "failed")]).status == 403)
        #expect(try journey.browser.post("/console/my-data/withdraw", [("csrf", "")]).status == 403)
        #expect(try journey.storedFeedback().isEmpty)
        #expect(try journey.browser.get(journey.path("verdict")).html.contains("value=\"passed\" checked"))
        #expect(try server.store.tester(journey.testerID)?.isActive == true)
    }

    @Test func herFeedbackPageListsOnlyHers() throws {
        let server = try InProcessServer()
        let aiko = try TesterConsoleJourney(server)
        let ken = try TesterConsoleJourney(server, fixKey: TesterConsoleJourney.key, name: "Ken", keys: ["user-8"])
        #expect(try aiko.browser.get("/console/my-feedback").html.contains("You have not sent any feedback yet"))
        func submit(_ tester: String, verdict: String, severity: String) throws {
            let body = #"{"tester":"\#(tester)","verdict":"\#(verdict)","task_outcome":"completed_independently","severity":"\#(severity)","platform":"ios","os_version":"18.2","app_build":"1","assistive_tech":"voiceover"}"#
            #expect(try server.call("POST", "/v1/fixes/\(TesterConsoleJourney.key)/feedback", json: body).status == 201)
        }
        try submit(aiko.testerID, verdict: "cant_tell", severity: "none")
        try submit(aiko.testerID, verdict: "passed", severity: "none")
        try submit(ken.testerID, verdict: "failed", severity: "serious")
        let page = try aiko.browser.get("/console/my-feedback")
        #expect(page.status == 200)
        #expect(page.html.contains("<caption class=\"table__caption\">Feedback you sent, newest first</caption>"))
        #expect(page.html.components(separatedBy: "<tr>").count - 2 == 2, "her two reports, under the header row")
        let passed = try #require(page.html.range(of: "Yes, it works"))
        let cantTell = try #require(page.html.range(of: "I can&#39;t tell"))
        #expect(passed.lowerBound < cantTell.lowerBound, "newest first")
        #expect(!page.html.contains("No, it does not work"), "never Ken's")
        #expect(page.html.contains("<a href=\"/console/testing/\(TesterConsoleJourney.key)\">Label channel logos</a>"))
    }

    @Test func sheCanSeeAndDownloadHerData() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let panel = try #require(try server.call("POST", "/v1/panels", json: #"{"name":"Screen readers <on TV>"}"#).json["id"]?.stringValue)
        try server.call("POST", "/v1/panels/\(panel)/members", json: #"{"testers":["\#(journey.testerID)"]}"#)
        let page = try journey.browser.get("/console/my-data")
        #expect(page.status == 200)
        for words in ["Aiko Tanaka", "VoiceOver on iOS, version 18.2", "user-7", journey.testerID, "Label channel logos", "href=\"/console/my-data/export\"",
                      "Groups of testers you are in", "<li>Screen readers &lt;on TV&gt;</li>"] {
            #expect(page.html.contains(words), "\(words)")
        }
        let download = try journey.browser.get("/console/my-data/export")
        #expect(download.status == 200)
        #expect(download.headers["content-disposition"] == "attachment; filename=\"vouch-my-data.json\"")
        #expect(download.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(download.headers["cache-control"] == "no-store")
        let json = try JSONParser.parse(download.html)
        #expect(json["tester"]?["id"]?.stringValue == journey.testerID)
        #expect(json["tester"]?["name"]?.stringValue == "Aiko Tanaka")
        #expect(json["enrollments"]?.arrayValue?.first?["fix"]?.stringValue == TesterConsoleJourney.key)
    }

    @Test func withdrawingAfterConfirmationEndsHerSessionAndErasesHerData() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        #expect(try journey.send(try journey.answerEverything()).status == 303)
        let confirm = try journey.browser.get("/console/my-data/withdraw")
        #expect(confirm.status == 200)
        #expect(confirm.html.contains("<h1 class=\"heading-l\">Are you sure you want to stop testing?</h1>"))
        #expect(confirm.html.contains("class=\"button button--warning\">Stop testing and delete my data</button>"))
        #expect(confirm.html.contains("deletes your name, your contact and the assistive technology you use"))
        let done = try journey.browser.post("/console/my-data/withdraw", [("csrf", try #require(confirm.csrf))])
        #expect(done.status == 303)
        #expect(done.location == "/console/withdrawn")
        #expect(done.setCookies.contains { $0.hasPrefix("vouch_console=;") && $0.contains("Max-Age=0") })
        #expect(journey.browser.cookies["vouch_console"] == nil)
        let withdrawn = try journey.browser.get("/console/withdrawn")
        #expect(withdrawn.status == 200)
        #expect(withdrawn.html.contains("You have stopped testing"))
        #expect(try journey.browser.get("/console/my-data").status == 303, "signed out")
        let tester = try #require(try server.store.tester(journey.testerID))
        #expect(!tester.isActive && tester.name == nil && tester.assistiveTech.isEmpty && tester.targetingKeys.isEmpty)
        let feedback = try journey.storedFeedback()
        #expect(feedback.count == 1, "the verdict stays")
        #expect(feedback.first?["tester"] == "withdrawn" && feedback.first?["comment"] == nil && feedback.first?["verdict"] == "passed")
    }

    @Test func sheMayHaveHerFeedbackDeletedToo() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let empty = try journey.browser.get("/console/my-data/withdraw")
        #expect(!empty.html.contains("purge_feedback"), "no feedback yet: nothing to choose")
        #expect(try journey.send(try journey.answerEverything()).status == 303)
        let confirm = try journey.browser.get("/console/my-data/withdraw")
        #expect(confirm.html.contains("Also delete whether each fix worked for me"))
        let done = try journey.browser.post("/console/my-data/withdraw", [("csrf", try #require(confirm.csrf)), ("purge_feedback", "true")])
        #expect(done.location == "/console/withdrawn")
        #expect(try journey.storedFeedback().isEmpty)
    }
}
