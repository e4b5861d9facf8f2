import Foundation
import Testing
import VouchServer

/// A tester's pages speak of her fix in plain words: its UI area, its expected announcement and what its own criteria
/// are about, never WCAG numbers; the device page asks for a version number; severity and task outcome say
/// different things, and answers that contradict each other are asked again.
struct ConsoleTesterWordsTests {
    /// A fix of headings (1.3.1 Info and Relationships, 2.4.6 Headings and Labels) on Android and iOS.
    static let headingFix = #"""
        {"key":"tv-guide-headings","title":"Headings in the TV guide","ui_area":"TV guide","platforms":["ios","android"],
         "wcag":["1.3.1","2.4.6"],"expected_announcement":"Tonight, heading"}
        """#

    static func headingJourney(_ server: InProcessServer, keys: [String] = ["user-7"]) throws -> TesterConsoleJourney {
        #expect(try server.call("POST", "/v1/fixes", json: Self.headingFix).status == 201)
        try server.call("POST", "/v1/fixes/tv-guide-headings/start")
        return try TesterConsoleJourney(server, fixKey: "tv-guide-headings", name: "Bo", keys: keys)
    }

    @Test func theAnnouncementsPageAsksAboutThisFixInPlainWords() throws {
        let server = try InProcessServer()
        let journey = try Self.headingJourney(server)
        let start = try journey.browser.get(journey.path())
        #expect(start.html.contains("Headings, lists, tables and labels are announced as what they are"))
        #expect(start.html.contains("Headings and labels say what they are about"))
        #expect(!start.html.contains("WCAG") && !start.html.contains("1.3.1") && !start.html.contains("2.4.6"))

        let page = try journey.browser.get(journey.path("announcements"))
        #expect(page.status == 200)
        #expect(page.html.contains("What did your assistive technology tell you in the TV guide?"))
        #expect(page.html.contains("The team changed the TV guide so that:"))
        #expect(page.html.contains("Did it say the name of what you reached?") && page.html.contains("Here it should say “Tonight”."))
        #expect(page.html.contains("Did it say what kind of thing it is?") && page.html.contains("Here it should say “heading”."))
        // A heading has no state, and neither criterion is about the order of moving through it: not asked.
        #expect(!page.html.contains("name=\"state_announced\"") && !page.html.contains("name=\"focus_order\""))
        for words in ["WCAG", "4.1.2", "2.4.3", "Name, Role, Value", "Focus Order", "control"] {
            #expect(!page.html.contains(words), "\(words)")
        }
    }

    @Test func theChannelSelectorIsAskedItsNameRoleAndState() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let page = try journey.browser.get(journey.path("announcements"))
        #expect(page.html.contains("What did your assistive technology tell you in the TV channel selector?"))
        for field in ["name_announced", "role_announced", "state_announced"] { #expect(page.html.contains("name=\"\(field)\""), "\(field)") }
        #expect(!page.html.contains("name=\"focus_order\""), "neither 1.1.1 nor 4.1.2 is about the order")
        #expect(page.html.contains("Here it should say “selected”."))
    }

    @Test func theDeviceAsksForTheVersionNumberOnly() throws {
        let server = try InProcessServer()
        let iosJourney = try TesterConsoleJourney(server)
        let ios = try iosJourney.browser.get(iosJourney.path("device"))
        #expect(ios.html.contains("The number only, for example 18.2."))
        #expect(!ios.html.contains("iOS 18.2"))
        let journey = try Self.headingJourney(server, keys: ["user-8"])
        let both = try journey.browser.get(journey.path("device"))
        #expect(both.html.contains("On a phone, the number only: for example 18.2 on iOS or 15 on Android."))
        // She types the platform anyway: the check page and the record say it once.
        #expect(try journey.answer("device", [("platform", "android"), ("os_version", "Android 15"), ("app_build", "5.12")]).status == 303)
        let device = try journey.browser.get(journey.path("device"))
        #expect(device.html.contains("The number only, for example 15."), "the hint follows the platform she chose")
    }

    @Test func severityRatesTheWorstProblemAndClashesAreAskedAgain() throws {
        let server = try InProcessServer()
        let journey = try TesterConsoleJourney(server)
        let severity = try journey.browser.get(journey.path("severity"))
        #expect(severity.html.contains("Think of the worst problem that is left, even if you found a way round it."))
        #expect(severity.html.contains("Serious: it stops me doing part of it on my own"))
        #expect(!severity.html.contains("workaround") && !severity.html.contains("help"), "the task's outcome says how she did it")

        // A task she could not finish, rated minor, would not block promotion: asked again.
        #expect(try journey.answer("task", [("task_outcome", "not_completed")]).status == 303)
        let minor = try journey.answer("severity", [("severity", "minor")])
        #expect(minor.status == 422)
        #expect(minor.html.contains("You could not finish the task, so choose Serious or Critical"))
        #expect(try journey.answer("severity", [("severity", "serious")]).status == 303)

        // A task she finished, rated critical ("it stops me doing it at all"), contradicts itself.
        #expect(try journey.answer("task", [("task_outcome", "completed_with_workaround")]).status == 303)
        #expect(try journey.answer("severity", [("severity", "critical")]).status == 422)
        // The README's pair: done with a workaround, a minor problem left.
        #expect(try journey.answer("severity", [("severity", "minor")]).status == 303)
    }
}
