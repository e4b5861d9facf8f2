import Foundation
import Synchronization
import Testing
import VouchServer
import VouchServices

/// What opening a personal link does, as the third attack tried it (RELIABILITY.md, "Personal links"): fetching the
/// link signs nobody in, sessions per link and per tester are bounded, openings are rate-limited and logged when
/// blocked, and what staff enter on a tester's link is recorded as theirs.
struct PersonalLinkOpeningTests {
    /// Every log line the server writes, for the tests that check what an operator is told.
    final class LogLines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var logger: Logger { Logger(level: .info, sink: { line in self.lines.withLock { $0.append(line) } }) }
    }

    @Test func fetchingALinkAgainAndAgainStoresNothingAndSignsNobodyIn() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let link = try server.personalLink(for: tester)
        for _ in 0..<50 {
            let browser = ConsoleBrowser(port: server.port)
            #expect(try browser.get(link.path).status == 200)
        }
        #expect(try server.store.consoleSessionCount(link: link.id) == 0, "a mail scanner's or chat preview's fetch opened a session")
    }

    @Test func sessionsPerLinkAreBoundedAndABrowserThatHasOneKeepsIt() throws {
        let server = try InProcessServer()
        let tester = try server.createTester()
        let link = try server.personalLink(for: tester)
        let first = ConsoleBrowser(port: server.port)
        #expect(try first.openLink(link.path).status == 303)
        let cookie = first.cookies["vouch_console"]
        // The same browser again: its session goes on, no second one is made.
        #expect(try first.get(link.path).location == "/console/")
        #expect(first.cookies["vouch_console"] == cookie)
        #expect(try server.store.consoleSessionCount(link: link.id) == 1)
        // Many browsers: at most five sessions stay; the oldest (the first browser's) ended.
        for _ in 0..<8 { #expect(try ConsoleBrowser(port: server.port).openLink(link.path).status == 303) }
        #expect(try server.store.consoleSessionCount(link: link.id) == 5)
        #expect(try first.get("/console/").status == 303, "the oldest session ended")
    }

    @Test func openingsAreLimitedPerLinkAndTheBlockIsLogged() throws {
        let log = LogLines()
        let server = try InProcessServer(logger: log.logger)
        let tester = try server.createTester()
        let link = try server.personalLink(for: tester)
        var statuses: [Int] = []
        for _ in 0..<22 { statuses.append(try ConsoleBrowser(port: server.port).openLink(link.path).status) }
        #expect(statuses.prefix(20).allSatisfy { $0 == 303 })
        #expect(statuses.suffix(2) == [429, 429])
        #expect(log.all.contains { $0.contains("msg=\"personal link openings limited\"") && $0.contains("link.id=\(link.id)") })
        #expect(!log.all.contains { $0.contains(String(link.path.dropFirst("/console/link/".count))) }, "the link's secret was logged")
    }

    @Test func guessedLinksAndTokensBlockedInTheConsoleAreLogged() throws {
        let log = LogLines()
        let server = try InProcessServer(logger: log.logger)
        for number in 0..<25 { _ = try ConsoleBrowser(port: server.port).get("/console/link/guess-\(number)-0123456789abcdefghijklmnopqrstuvw") }
        #expect(try ConsoleBrowser(port: server.port).get("/console/link/guess-x").status == 429)
        #expect(log.all.filter { $0.contains("msg=\"unknown personal links blocked\"") && $0.contains("client.address=127.0.0.1") }.count == 1)

        let other = try InProcessServer(logger: log.logger)
        let browser = ConsoleBrowser(port: other.port)
        for number in 0..<25 {
            let page = try browser.get("/console/sign-in")
            _ = try browser.post("/console/sign-in", [("csrf", page.csrf ?? ""), ("token", "vch_guess\(number)"), ("next", "")])
        }
        #expect(log.all.contains { $0.contains("msg=\"unknown console tokens blocked\"") })
        #expect(!log.all.contains { $0.contains("vch_guess") }, "a guessed token was logged")
    }

    @Test func feedbackStaffEnteredOnATestersLinkSaysSo() throws {
        let server = try InProcessServer()
        let staff = try server.signedInBrowser(role: "maintainer", name: "mona")
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(TesterConsoleJourney.key)/start")
        // Mona opens the link she was to send, in the browser she is signed in with: the page warns her first.
        let testerID = try server.createTester()
        let link = try server.personalLink(for: testerID)
        let page = try staff.get(link.path)
        #expect(page.html.contains("You are signed in as mona, who is not this tester"))
        _ = try server.call("DELETE", "/v1/testers/\(testerID)/links/\(link.id)")
        let journey = try TesterConsoleJourney(server, name: "Bo", keys: ["user-8"], createFix: false, in: staff)
        #expect(try journey.send(try journey.answerEverything()).status == 303)

        let stored = try #require(server.call("GET", "/v1/fixes/\(TesterConsoleJourney.key)/feedback").json["feedback"]?.arrayValue?.first)
        #expect(stored["recorded_by"]?.stringValue == journey.testerID)
        #expect(stored["link"]?["opened_by"]?.stringValue == "mona")
        #expect(stored["link"]?["created_by"]?.stringValue == "admin")
        let audit = try server.call("GET", "/v1/audit?fix=\(TesterConsoleJourney.key)").json["events"]?.arrayValue ?? []
        let created = try #require(audit.last { $0["action"]?.stringValue == "feedback.create" })
        #expect(created["via"]?.stringValue?.hasSuffix("created by admin, opened in a browser signed in as mona") == true)
        // Where the release manager weighs the evidence.
        let review = try server.signedInBrowser(role: "release_manager", name: "rita").get("/console/fixes/\(TesterConsoleJourney.key)")
        #expect(review.html.contains("Entered by mona on the tester&#39;s personal link, not by the tester"))

        // The tester's own opening of her link records no one else.
        let own = try TesterConsoleJourney(server, name: "Cy", keys: ["user-9"], createFix: false)
        #expect(try own.send(try own.answerEverything()).status == 303)
        let hers = try server.call("GET", "/v1/fixes/\(TesterConsoleJourney.key)/feedback?tester=\(own.testerID)").json["feedback"]?.arrayValue?.first
        #expect(hers?["link"]?["opened_by"] == .null)
    }
}
