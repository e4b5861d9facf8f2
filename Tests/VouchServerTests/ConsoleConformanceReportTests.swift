import Foundation
import Testing
import VouchDaemon
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit
import VouchServices
import VouchTestSupport

/// The Accessibility Conformance Report as a console page for staff who read every fix, in English and Japanese, and
/// `report.product_name` (docs/evidence.md): the page shows the report the API builds, a table per WCAG level with its
/// caption and headers, each level in words.
@Suite(.serialized) struct ConsoleConformanceReportTests {
    static let fixes = "tv-channel-selector-labels,web-checkout-labels,epg-grid-focus-order"
    static let reportPath = "/console/reports/acr?fixes=" + fixes

    static func settings(productName: String = "Example TV") -> ApplicationSettings {
        var settings = InProcessServer.testSettings()
        settings.programmeOperator = ProgrammeOperator(name: "Example Media Ltd", contact: "privacy@example.com")
        settings.reportProductName = productName
        return settings
    }

    static func feedback(_ tester: String, _ verdict: String, platform: String = "ios", technology: String = "voiceover", browser: String? = nil) -> String {
        let browserMember = browser.map { #","browser":"\#($0)","browser_version":"140""# } ?? ""
        return #"""
            {"tester":"\#(tester)","verdict":"\#(verdict)","task_outcome":"completed_independently","severity":"\#(verdict == "failed" ? "serious" : "none")",
             "platform":"\#(platform)","os_version":"18.2","app_build":"5.4.1","assistive_tech":"\#(technology)"\#(browserMember)}
            """#
    }

    /// Three fixes in testing: the channel selector (iOS; 1.1.1, 4.1.2) passed by Aiko and failed by Ben; the checkout
    /// (web; 3.3.2) passed by Chloe with NVDA; the EPG grid (iOS; 2.4.3) failed by Ben. Returns the testers' ids.
    @discardableResult
    static func evidence(_ server: InProcessServer) throws -> [String] {
        try server.createChannelSelectorFix()
        for body in [#"{"key":"web-checkout-labels","title":"Label the checkout fields","ui_area":"Checkout form","platforms":["web"],"wcag":["3.3.2"]}"#,
                     #"{"key":"epg-grid-focus-order","title":"EPG grid focus order","ui_area":"Programme guide","platforms":["ios"],"wcag":["2.4.3"]}"#] {
            #expect(try server.call("POST", "/v1/fixes", json: body).status == 201)
        }
        let aiko = try server.createTester(name: "Aiko", keys: ["aiko"])
        let ben = try server.createTester(name: "Ben", keys: ["ben"])
        let chloe = try server.createTester(name: "Chloe", keys: ["chloe"], technology: "nvda:web")
        for (fix, testers) in [("tv-channel-selector-labels", [aiko, ben]), ("web-checkout-labels", [chloe]), ("epg-grid-focus-order", [ben])] {
            try server.call("POST", "/v1/fixes/\(fix)/start")
            try server.call("POST", "/v1/fixes/\(fix)/enrollments", json: #"{"testers":[\#(testers.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
        }
        for (fix, body) in [("tv-channel-selector-labels", feedback(aiko, "passed")), ("tv-channel-selector-labels", feedback(ben, "failed")),
                            ("web-checkout-labels", feedback(chloe, "passed", platform: "web", technology: "nvda", browser: "firefox")),
                            ("epg-grid-focus-order", feedback(ben, "failed"))] {
            let answer = try server.call("POST", "/v1/fixes/\(fix)/feedback", json: body)
            #expect(answer.status == 201, "\(answer.text)")
        }
        return [aiko, ben, chloe]
    }

    static func row(_ criterion: String, _ component: String, _ level: String) -> String {
        "<tr><th scope=\"row\">\(criterion)</th><td>\(component)</td><td>\(level)</td>"
    }

    @Test func thePageShowsEveryLevelInWordsInATablePerChapter() throws {
        let server = try InProcessServer(settings: Self.settings())
        try Self.evidence(server)
        let browser = try server.signedInBrowser(role: "maintainer", name: "maria")
        let page = try browser.get(Self.reportPath)
        #expect(page.status == 200, "\(page.html.prefix(2_000))")
        #expect(page.html.contains("<title>Example TV: Accessibility Conformance Report – Vouch</title>"))
        #expect(page.html.contains("<h1 class=\"heading-l\">Example TV: Accessibility Conformance Report</h1>"))
        for caption in ["Table 1: Success criteria, Level A", "Table 2: Success criteria, Level AA", "Table 3: Success criteria, Level AAA"] {
            #expect(page.html.contains("<caption class=\"table__caption\">\(caption)</caption>"), "\(caption)")
        }
        #expect(page.html.components(separatedBy: "<table").count - 1 == 3, "a table per WCAG level")
        #expect(page.html.contains("<thead><tr><th scope=\"col\">Criterion</th><th scope=\"col\">Component</th><th scope=\"col\">Conformance level</th><th scope=\"col\">Remarks and explanations</th></tr></thead>"))
        let software = "Software (iOS and Android apps)"
        #expect(page.html.contains(Self.row("1.1.1 Non-text Content", software, "Partially supports")), "passed beside failed")
        #expect(page.html.contains(Self.row("4.1.2 Name, Role, Value", software, "Partially supports")))
        #expect(page.html.contains(Self.row("3.3.2 Labels or Instructions", "Web", "Supports")), "every verdict passed")
        #expect(page.html.contains(Self.row("2.4.3 Focus Order", software, "Does not support")), "none passed")
        #expect(page.html.contains(Self.row("1.3.1 Info and Relationships", software, "Not evaluated")), "no evidence, no claim")
        #expect(page.html.contains(Self.row("1.1.1 Non-text Content", "Web", "Not evaluated")))
        // The remarks say in words which technologies back the level; nobody is named.
        #expect(page.html.contains("Passed: 1 tester with VoiceOver on iOS 18.2. Failed: 1 tester with VoiceOver on iOS 18.2."))
        #expect(page.html.contains("Passed: 1 tester with NVDA on the web (Firefox)."))
        for name in ["Aiko", "Ben", "Chloe"] { #expect(!page.html.contains(name), "\(name) is not named") }
        #expect(page.html.contains("<h2 class=\"heading-m\">EN 301 549 Chapter 9: Web</h2>"))
        #expect(page.html.contains("Example Media Ltd, privacy@example.com"))
        // The navigation leads here and says it is here; the form keeps the choice.
        #expect(page.html.contains("<a href=\"/console/reports/acr\" aria-current=\"page\""), "\(page.html.prefix(3_000))")
        #expect(page.html.contains("<form method=\"get\" action=\"/console/reports/acr\" novalidate>"))
        #expect(page.html.contains("value=\"\(Self.fixes)\""))
        #expect(page.html.contains("Leave empty for Example TV."))
        // The same report as files, from the same service.
        let yaml = try browser.get("/console/reports/acr/file?fixes=\(Self.fixes)&format=openacr")
        #expect(yaml.status == 200 && yaml.headers["content-type"] == "application/yaml; charset=utf-8")
        #expect(yaml.html.contains("catalog: \"2.5-edition-wcag-2.2-508-eu-en\"") && yaml.html.contains("name: \"Example TV\""))
        let markdown = try browser.get("/console/reports/acr/file?fixes=\(Self.fixes)&format=markdown")
        #expect(markdown.status == 200 && markdown.html.contains("| 2.4.3 Focus Order | Software | Does Not Support |"))
        // A fix's page links to its report.
        let fix = try browser.get("/console/fixes/epg-grid-focus-order")
        #expect(fix.html.contains("<a href=\"/console/reports/acr?fixes=epg-grid-focus-order\">Accessibility Conformance Report of this fix</a>"))
        let release = try server.signedInBrowser(role: "release_manager", name: "rita")
        #expect(try release.get(Self.reportPath).status == 200)
    }

    @Test func inJapaneseTheLevelsAndHeadersAreJapaneseAndTheReportsOwnWordsAreMarkedEnglish() throws {
        let server = try InProcessServer(settings: Self.settings())
        try Self.evidence(server)
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        let page = try browser.get(Self.reportPath + "&lang=ja")
        #expect(page.status == 200)
        #expect(page.html.contains("<html lang=\"ja\">"))
        #expect(page.html.contains("<h1 class=\"heading-l\">Example TV のアクセシビリティ適合性レポート</h1>"))
        #expect(page.html.contains("<caption class=\"table__caption\">表 2：達成基準（レベル AA）</caption>"))
        #expect(page.html.contains("<th scope=\"col\">適合レベル</th>"))
        let software = "ソフトウェア（iOS と Android のアプリ）"
        #expect(page.html.contains(Self.row("<span lang=\"en\">1.1.1 Non-text Content</span>", software, "一部対応")))
        #expect(page.html.contains(Self.row("<span lang=\"en\">3.3.2 Labels or Instructions</span>", "ウェブ", "対応")))
        #expect(page.html.contains(Self.row("<span lang=\"en\">2.4.3 Focus Order</span>", software, "非対応")))
        #expect(page.html.contains(Self.row("<span lang=\"en\">1.3.1 Info and Relationships</span>", software, "評価していない")))
        #expect(page.html.contains("<td><span lang=\"en\">Verified by assistive-technology users on fix epg-grid-focus-order (revision 1)."))
        #expect(page.html.contains(">適合性レポート</a>"), "the navigation in Japanese")
    }

    @Test func aBadDayIsNamedInTheErrorSummaryAndNothingIsShown() throws {
        let server = try InProcessServer(settings: Self.settings())
        try Self.evidence(server)
        let browser = try server.signedInBrowser(role: "maintainer", name: "maria")
        let empty = try browser.get("/console/reports/acr")
        #expect(empty.status == 200 && !empty.html.contains("<table") && !empty.html.contains("There is a problem"))
        // The form sends every field; the empty ones are not given.
        let bad = try browser.get("/console/reports/acr?fixes=&released_from=2026-13-01&released_to=&product_name=&product_version=")
        #expect(bad.status == 422)
        #expect(bad.html.contains("<title>Error: Accessibility Conformance Report – Vouch</title>"), "\(bad.html.prefix(600))")
        #expect(bad.html.contains("<a href=\"#field-released-from\">Released on or after must be a day as YYYY-MM-DD in UTC, such as 2026-12-01, got &#39;2026-13-01&#39;</a>"),
                "\(bad.html)")
        #expect(bad.html.contains("value=\"2026-13-01\""), "what she typed stays")
        #expect(!bad.html.contains("<table"))
        let both = try browser.get("/console/reports/acr?fixes=tv-channel-selector-labels&released_from=2026-12-01&lang=ja")
        #expect(both.status == 422)
        #expect(both.html.contains("<a href=\"#field-fixes\">「修正のキー」を確認してください："), "\(both.html)")
        let unknown = try browser.get("/console/reports/acr?fixes=no-such-fix")
        #expect(unknown.status == 422 && unknown.html.contains("no fix has the key &#39;no-such-fix&#39;"))
    }

    @Test func aTesterIsRefusedAndSeesNoLink() throws {
        let server = try InProcessServer(settings: Self.settings())
        let testers = try Self.evidence(server)
        let tester = try server.testerBrowser(testers[0])
        let refused = try tester.get(Self.reportPath)
        #expect(refused.status == 403)
        #expect(!refused.html.contains("<table"))
        #expect(try tester.get("/console/reports/acr/file?fixes=tv-channel-selector-labels&format=openacr").status == 403)
        #expect(!(try tester.get("/console/").html.contains("/console/reports/acr")))
        #expect(try ConsoleBrowser(port: server.port).get(Self.reportPath).status == 303, "nobody signed in goes to sign in")
    }

    @Test func theProductNameSettingNamesTheProductUnlessTheRequestDoes() throws {
        let server = try InProcessServer(settings: Self.settings(productName: "Example TV"))
        try Self.evidence(server)
        let configured = try server.call("GET", "/v1/reports/acr?fixes=web-checkout-labels")
        #expect(configured.status == 200 && configured.text.contains("title: \"Example TV Accessibility Conformance Report\""), "\(configured.text.prefix(300))")
        let named = try server.call("GET", "/v1/reports/acr?fixes=web-checkout-labels&product_name=Example%20Radio")
        #expect(named.status == 200 && named.text.contains("title: \"Example Radio Accessibility Conformance Report\""))

        let unset = try InProcessServer(settings: Self.settings(productName: ""))
        try Self.evidence(unset)
        let refused = try unset.call("GET", "/v1/reports/acr?fixes=web-checkout-labels")
        #expect(refused.status == 422)
        #expect(refused.json["errors"]?.arrayValue?.first?["field"]?.stringValue == "product_name")
        #expect(refused.text.contains("unless report.product_name is set in vouchd's configuration"))
        let browser = try unset.signedInBrowser(role: "maintainer", name: "maria")
        // Without a product to name, a fix's page has no link that could only lead to a form with an error.
        #expect(!(try browser.get("/console/fixes/web-checkout-labels").html.contains("/console/reports/acr?")))
        let page = try browser.get("/console/reports/acr?fixes=web-checkout-labels")
        #expect(page.status == 422 && page.html.contains("<a href=\"#field-product-name\">Product name is required"))
    }

    @Test func theSettingIsCheckedAndRead() throws {
        var configuration = DaemonConfiguration()
        try configuration.set("report.product_name", " Example TV ", source: "test", location: "test")
        #expect(configuration.applicationSettings.reportProductName == "Example TV")
        #expect(DaemonConfiguration.defaults.applicationSettings.reportProductName == "")
        var bad = DaemonConfiguration()
        #expect(throws: (any Error).self) { try bad.set("report.product_name", String(repeating: "x", count: 201), source: "test", location: "test") }
        #expect(throws: (any Error).self) { try bad.set("report.product_name", "Example\u{7}TV", source: "test", location: "test") }
        let run = try VouchdRun(["check-config"], environment: ["VOUCHD_REPORT_PRODUCT_NAME": "Example\u{1}TV"])
        #expect(run.status == 78)
        #expect(run.errors.contains("report.product_name"), "\(run.errors)")
    }
}
