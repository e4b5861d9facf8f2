import Foundation
import Testing
@testable import VouchConsole
import VouchDomain
@testable import VouchServer
import VouchStore

/// A fix's own criteria and the audit log in the console: set and read through the services the API uses, refused
/// to the roles the API refuses, in Japanese and English.
struct ConsoleCriteriaAuditTests {
    static let key = "tv-channel-selector-labels"

    @Test func aReleaseManagerSetsAFixsCriteriaAndEmptyFieldsKeepTheDefaults() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        #expect(try browser.get("/console/fixes/\(Self.key)").html.contains("<a href=\"/console/fixes/\(Self.key)/criteria\">Change the promotion criteria"))
        let form = try browser.get("/console/fixes/\(Self.key)/criteria")
        #expect(form.status == 200 && form.html.contains("<title>Promotion criteria for Label channel logos – Vouch</title>"))
        let saved = try browser.submit("/console/fixes/\(Self.key)/criteria", [("min_testers_passed", "3"), ("required_assistive_tech", "ios:voiceover, ios:switch_control"),
                                                                               ("max_blocking", ""), ("min_pass_ratio", "0.9"), ("min_soak", "48h"),
                                                                               ("approvals_required", "2")])
        #expect(saved.status == 303 && saved.location == "/console/fixes/\(Self.key)?done=criteria")
        let criteria = try #require(try server.store.fix(Self.key)).criteria
        #expect(criteria == CriteriaOverrides(minTestersPassed: 3, requiredAssistiveTech: [.init(platform: .ios, technology: .voiceover),
                                                                                           .init(platform: .ios, technology: .switchControl)],
                                              minPassRatio: 0.9, minSoakSeconds: 48 * 3600, approvalsRequired: 2))
        #expect(try browser.follow(saved).html.contains("The promotion criteria were saved"))
        let again = try browser.get("/console/fixes/\(Self.key)/criteria")
        #expect(again.html.contains("value=\"3\"") && again.html.contains("value=\"2d\"") && again.html.contains("value=\"0.9\""))
        let audit = try server.call("GET", "/v1/audit?action=fix.criteria")
        #expect(audit.json["events"]?.arrayValue?.count == 1 && audit.json["events"]?.arrayValue?.first?["principal"]?.stringValue == "rita")
    }

    @Test func badCriteriaAreEachNamedAndNoneIsSaved() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let browser = try server.signedInBrowser(role: "release_manager")
        let page = try browser.submit("/console/fixes/\(Self.key)/criteria", [("min_testers_passed", "two"), ("required_assistive_tech", "tv:jaws"),
                                                                              ("max_blocking", "-1"), ("min_pass_ratio", "1.5"), ("min_soak", "2y"),
                                                                              ("approvals_required", "0")])
        #expect(page.status == 422)
        #expect(page.summaryLinks == ["#field-min-testers-passed", "#field-required-assistive-tech", "#field-max-blocking", "#field-min-pass-ratio",
                                      "#field-min-soak", "#field-approvals-required"])
        #expect(page.html.contains("value=\"two\""), "what was typed is kept")
        #expect(try server.store.fix(Self.key)?.criteria.isEmpty == true)
        let japanese = try browser.get("/console/fixes/\(Self.key)/criteria", headers: ConsoleLanguageTests.japanese)
        #expect(japanese.html.contains("の公開の基準") && ConsoleLanguageTests.english(in: japanese.html).isEmpty,
                "\(ConsoleLanguageTests.english(in: japanese.html))")
    }

    @Test func aMaintainerMayNotSetCriteria() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let maintainer = try server.signedInBrowser(role: "maintainer", name: "mo")
        #expect(!(try maintainer.get("/console/fixes/\(Self.key)").html.contains("/criteria\"")))
        #expect(try maintainer.get("/console/fixes/\(Self.key)/criteria").status == 403)
        #expect(try maintainer.post("/console/fixes/\(Self.key)/criteria", [("approvals_required", "1")]).status == 403)
        let admin = try server.signedInBrowser()
        #expect(try admin.get("/console/fixes/\(Self.key)/criteria").status == 200, "an administrator may")
    }

    @Test func theAuditLogIsFilteredByActionPrincipalFixAndTime() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        _ = try server.createTester()
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let all = try browser.get("/console/audit")
        #expect(all.status == 200 && all.html.contains("<title>Audit log – Vouch</title>"))
        #expect(all.html.contains("<code>fix.create</code>") && all.html.contains("<code>tester.create</code>"))
        let byAction = try browser.get("/console/audit?action=fix.create")
        #expect(byAction.html.contains("<code>fix.create</code>") && !byAction.html.contains("<code>tester.create</code>"))
        #expect(byAction.html.contains("<option value=\"fix.create\" selected>") && byAction.html.contains("Clear the filter"))
        let byFix = try browser.get("/console/audit?fix=\(Self.key)")
        #expect(byFix.html.contains("<code>fix.create</code>") && !byFix.html.contains("<code>tester.create</code>"))
        #expect(try browser.get("/console/audit?principal=nobody").html.contains("No event matches the filter."))
        #expect(try browser.get("/console/audit?until=2000-01-01").html.contains("No event matches the filter."))
        #expect(try browser.get("/console/audit?since=2000-01-01&principal=admin").html.contains("<code>fix.create</code>"))
        let bad = try browser.get("/console/audit?action=fix.explode&since=yesterday&until=2000-01-01")
        #expect(bad.status == 422 && bad.summaryLinks == ["#field-action", "#field-since"])
        #expect(bad.html.contains("value=\"yesterday\""))
        let japanese = try browser.get("/console/audit", headers: ConsoleLanguageTests.japanese)
        #expect(japanese.html.contains("<h1 class=\"heading-l\">監査ログ</h1>"))
        #expect(ConsoleLanguageTests.english(in: japanese.html).isEmpty, "\(ConsoleLanguageTests.english(in: japanese.html))")
        let tester = try server.testerBrowser(try server.createTester(name: "Ken", keys: ["user-9"]))
        #expect(try tester.get("/console/audit").status == 403)
        let api = try server.call("GET", "/v1/audit?principal=admin&action=tester.create")
        #expect(api.json["events"]?.arrayValue?.count == 2)
        #expect(try server.call("GET", "/v1/audit?since=soon").status == 422)
        #expect(try server.call("GET", "/v1/audit?action=").status == 422, "an empty action is none of the actions")
    }

    @Test func theAuditLogPagesKeepTheFilter() throws {
        let server = try InProcessServer()
        for index in 0..<(AdminPages.pageSize + 2) { _ = try server.createTester(name: "Tester \(index)", keys: ["key-\(index)"]) }
        let browser = try server.signedInBrowser()
        let first = try browser.get("/console/audit?action=tester.create")
        let link = try #require(first.html.range(of: "href=\"/console/audit?action=tester.create&amp;cursor=") ?? first.html.range(of: "href=\"/console/audit?action=tester.create&cursor="))
        #expect(!link.isEmpty)
        let next = String(first.html[link.lowerBound...].dropFirst("href=\"".count).prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        let second = try browser.get(next)
        #expect(second.status == 200 && second.html.components(separatedBy: "<code>tester.create</code>").count - 1 == 2)
    }
}
