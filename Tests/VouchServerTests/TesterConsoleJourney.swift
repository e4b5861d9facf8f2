import Foundation
import Testing
import VouchDaemon
import VouchServer

/// A tester in the console, enrolled in a fix in testing, and the steps of her feedback as a browser sends them.
struct TesterConsoleJourney {
    static let key = "tv-channel-selector-labels"

    let server: InProcessServer
    let testerID: String
    let browser: ConsoleBrowser
    let fixKey: String

    /// A tester enrolled in the channel selector fix (iOS only), signed in with her personal link.
    /// - Parameter existing: a browser to open her link in (one where staff are signed in), instead of a new one.
    init(_ server: InProcessServer, name: String = "Aiko Tanaka", keys: [String] = ["user-7"], createFix: Bool = true, in existing: ConsoleBrowser? = nil) throws {
        if createFix {
            try server.createChannelSelectorFix()
            try server.call("POST", "/v1/fixes/\(Self.key)/start")
        }
        try self.init(server, fixKey: Self.key, name: name, keys: keys, in: existing)
    }

    /// A tester enrolled in `fixKey`, which is already in testing.
    init(_ server: InProcessServer, fixKey: String, name: String = "Aiko Tanaka", keys: [String] = ["user-7"], in existing: ConsoleBrowser? = nil) throws {
        self.server = server
        self.fixKey = fixKey
        testerID = try server.createTester(name: name, keys: keys)
        let enrolled = try server.call("POST", "/v1/fixes/\(fixKey)/enrollments", json: #"{"testers":["\#(testerID)"]}"#)
        guard (200..<300).contains(enrolled.status) else { throw DaemonError("enrollment failed: \(enrolled.status) \(enrolled.text)") }
        if let existing {
            let opened = try existing.openLink(try server.personalLink(for: testerID).path)
            guard opened.status == 303 else { throw DaemonError("the link answered \(opened.status)") }
            browser = existing
        } else {
            browser = try server.testerBrowser(testerID)
        }
    }

    var csrf: String { get throws { try #require(try browser.get("/console/").csrf) } }

    func path(_ page: String = "") -> String { "/console/testing/\(fixKey)" + (page.isEmpty ? "" : "/feedback/" + page) }

    /// Posts one question page's fields with the session's CSRF token.
    @discardableResult
    func answer(_ step: String, _ fields: [(String, String)], changing: Bool = false) throws -> ConsoleBrowser.Page {
        try browser.post(path(step) + (changing ? "?from=check" : ""), [("csrf", try csrf)] + fields)
    }

    /// The answers of a whole feedback on the iOS fix, page by page.
    static let iosAnswers: [(step: String, fields: [(String, String)])] = [
        ("device", [("os_version", "iOS 18.2"), ("app_build", "5.12 (2041)"), ("device", "iPhone 15")]),
        ("assistive-technology", [("assistive_tech", "voiceover"), ("at_version", "18.2")]),
        ("verdict", [("verdict", "passed")]),
        ("task", [("task_outcome", "completed_with_workaround")]),
        ("severity", [("severity", "minor")]),
        ("announcements", [("name_announced", "yes"), ("role_announced", "yes"), ("state_announced", "n/a")]),
        ("heard", [("heard", "NHK, button")]),
        ("regression", [("regression", "no")]),
        ("comment", [("comment", "Some issues, but usable.")]),
    ]

    /// Answers every page and returns the check page.
    func answerEverything() throws -> ConsoleBrowser.Page {
        for (step, fields) in Self.iosAnswers {
            let page = try answer(step, fields)
            guard page.status == 303 else { throw DaemonError("\(step) answered \(page.status): \(page.html)") }
        }
        return try browser.get(path("check"))
    }

    /// Sends the check page's form.
    func send(_ check: ConsoleBrowser.Page) throws -> ConsoleBrowser.Page {
        try browser.post(path("check"), [("csrf", try #require(check.csrf)),
                                         ("idempotency_key", try #require(ConsoleBrowser.hiddenValue("idempotency_key", in: check.html)))])
    }

    /// Her feedback on the fix, as the API lists it to an admin.
    func storedFeedback() throws -> [[String: String]] {
        let list = try server.call("GET", "/v1/fixes/\(fixKey)/feedback").json["feedback"]?.arrayValue ?? []
        return list.map { record in
            var fields: [String: String] = [:]
            for key in ["id", "tester", "channel", "recorded_by", "verdict", "severity", "comment", "os_version", "assistive_tech", "browser"] {
                fields[key] = record[key]?.stringValue
            }
            return fields
        }
    }
}
