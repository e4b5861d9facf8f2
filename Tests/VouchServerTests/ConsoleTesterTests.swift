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
        let server = try LiveServer()
        let journey = try TesterConsoleJourney(server)
        let home = try journey.browser.get("/console/")
        #expect(home.html.contains("href=\"/console/testing/\(TesterConsoleJourney.key)\""))
        #expect(home.html.contains("Waiting for your feedback"))

        let start = try journey.browser.get(journey.path())
        #expect(start.status == 200)
        #expect(start.html.contains("<title>Label channel logos – Vouch</title>"))
        #expect(start.html.contains("TV channel selector"))
        #expect(start.html.contains("“NHK, button, selected”"))
        #expect(start.html.contains("1.1.1 Non-text Content") && start.html.contains("4.1.2 Name, Role, Value"))
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
        #expect(confirmation.html.contains(try #require(stored.first?["id"])), "the reference is the feedback's id")
        // The answers are gone from the store; only the key and the reference stay.
        let cookie = try #require(journey.browser.cookies["vouch_console"])
        let draft = try #require(try server.store.consoleDraft(session: Digest.sha256(cookie), fix: TesterConsoleJourney.key))
        #expect(draft.contains(key) && !draft.contains("usable"))
        #expect(try journey.browser.get("/console/").html.contains("Feedback sent"))
        #expect(try journey.browser.get(journey.path()).html.contains("You sent feedback on this version"))
    }

    @Test func missingOrWrongAnswersShowTheErrorStateAndKeepWhatSheEntered() throws {
        let server = try LiveServer()
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
        let server = try LiveServer()
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
        let server = try LiveServer()
        let fix = #"{"key":"player-controls","title":"Label the player's controls","ui_area":"Video player","platforms":["ios","web"]}"#
        #expect(try server.call("POST", "/v1/fixes", json: fix).status == 201)
        try server.call("POST", "/v1/fixes/player-controls/start")
        let journey = try TesterConsoleJourney(server, fixKey: "player-controls")
        let missing = try journey.answer("device", [("os_version", "iOS 18.2"), ("app_build", "5.12")])
        #expect(missing.html.contains("<a href=\"#field-platform\">Select the platform you tested on</a>"))
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
        let server = try LiveServer()
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
        let server = try LiveServer()
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
        let server = try LiveServer()
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
        let server = try LiveServer()
        _ = try TesterConsoleJourney(server)
        let admin = try server.signedInBrowser()
        for path in ["/console/testing/\(TesterConsoleJourney.key)", "/console/testing/\(TesterConsoleJourney.key)/feedback/verdict"] {
            let page = try admin.get(path)
            #expect(page.status == 403, "\(path)")
            #expect(page.html.contains("is for testers"))
        }
        let anonymous = try ConsoleBrowser(port: server.port).get("/console/testing/\(TesterConsoleJourney.key)")
        #expect(anonymous.status == 303 && anonymous.location == "/console/sign-in?next=/console/testing/\(TesterConsoleJourney.key)")
    }

    @Test func formsWithoutTheSessionsCSRFTokenChangeNothing() throws {
        let server = try LiveServer()
        let journey = try TesterConsoleJourney(server)
        let check = try journey.answerEverything()
        let key = try #require(ConsoleBrowser.hiddenValue("idempotency_key", in: check.html))
        #expect(try journey.browser.post(journey.path("check"), [("idempotency_key", key)]).status == 403)
        #expect(try journey.browser.post(journey.path("verdict"), [("csrf", "forged"), ("verdict", "failed")]).status == 403)
        #expect(try journey.storedFeedback().isEmpty)
        #expect(try journey.browser.get(journey.path("verdict")).html.contains("value=\"passed\" checked"))
    }
}
