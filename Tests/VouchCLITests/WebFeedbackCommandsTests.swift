import Foundation
import Testing
import VouchTestSupport

/// Web feedback through the CLI: the browser is an option, asked for on a terminal, and required by the server.
@Suite struct WebFeedbackCommandsTests {
    static let key = "web-checkout-labels"

    func webFixAndTester(_ server: DaemonProcess) throws -> String {
        for arguments in [["fix", "create", Self.key, "--title", "Label the checkout fields", "--ui-area", "Checkout form", "--platform", "web"],
                          ["fix", "start", Self.key]] {
            try #require(try server.vouch(arguments).status == 0)
        }
        let tester = try server.addTester(name: "Noor", technology: "nvda:web:2024.4", keys: ["web-user-1"])
        try #require(try server.vouch("enroll", Self.key, tester).status == 0)
        return tester
    }

    @Test func aWebReportWithoutABrowserIsRefusedAndOneWithItIsShown() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try webFixAndTester(server)
        let base = ["feedback", "submit", Self.key, "--tester", tester, "--verdict", "passed", "--task-outcome", "completed_independently",
                    "--severity", "none", "--platform", "web", "--os-version", "Windows 11", "--app-build", "2026.11.30", "--assistive-tech", "nvda"]
        // Without a terminal to ask on, the missing browser is a usage error, as any missing required option.
        let refused = try server.vouch(base)
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("Error: Missing required option '--browser <browser>'."), "\(refused)")
        let unknown = try server.vouch(base + ["--browser", "netscape"])
        #expect(unknown.status == 64, "\(unknown)")
        let sent = try server.vouch(base + ["--browser", "firefox", "--browser-version", "133"])
        #expect(sent.status == 0, "\(sent)")
        let list = try server.vouch("feedback", "list", Self.key)
        #expect(list.stdout.contains("Browser: Firefox 133."), "\(list)")
    }

    @Test func theInterviewAsksForTheBrowserOnTheWeb() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try webFixAndTester(server)
        let session = try TerminalSession(["feedback", "submit", Self.key, "--tester", tester, "--verdict", "passed", "--task-outcome", "completed_independently",
                                           "--severity", "none", "--platform", "web", "--os-version", "Windows 11", "--app-build", "2026.11.30"],
                                          environment: server.environment())
        // On the web every technology fits: they come in groups, a line each, rather than fifteen in one line.
        try session.expect("""
            Assistive technology on the web:
            Screen readers: 1 NVDA, 2 JAWS, 3 VoiceOver, 4 Narrator, 5 Orca, 6 ChromeVox, 7 TalkBack
            Switch and voice control: 8 Switch Control, 9 Switch Access, 10 Voice Control, 11 Voice Access
            Vision: 12 braille display, 13 screen magnifier, 14 large text
            Or: 15 other assistive technology
            Assistive technology on the web? A number from 1 to 15: 
            """)
        try session.type("1")
        try session.expect("Browser? 1 Chrome, 2 Edge, 3 Firefox, 4 Safari, 5 Samsung Internet, 6 other browser: ")
        try session.type("3")
        try session.expect("What did NVDA say, word for word? (optional, press Enter to skip): ")
        try session.type("")
        try session.expect("Did anything else stop working while the fix was on? 1 yes, 2 no: ")
        try session.type("no")
        try session.expect("Comment (optional, press Enter to skip): ")
        try session.type("")
        try session.expect("Browser: Firefox\n")
        try session.expect("Send this feedback? (yes/no): ")
        try session.type("yes")
        #expect(try session.waitForExit() == 0)
    }
}
