import Foundation
import Testing
import VouchJSON
@testable import VouchServer

/// A tester's own data export holds her evidence as EARL, only hers, by her pseudonym; a tester who withdrew is
/// "withdrawn" in every export, with nothing her withdrawal erased (docs/evidence.md, "Privacy").
@Suite(.serialized) struct TesterEvidenceExportTests {
    static let fix = "tv-channel-selector-labels"

    /// Aiko passed and Ben failed the channel selector (1.1.1, 4.1.2); Ben then withdraws when `withdrawing`.
    func world(withdrawing: Bool) throws -> (server: InProcessServer, aiko: String, ben: String) {
        let server = try InProcessServer(settings: ConsoleConformanceReportTests.settings())
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.fix)/start")
        let aiko = try server.createTester(name: "Aiko", keys: ["aiko"])
        let ben = try server.createTester(name: "Ben", keys: ["ben"])
        try server.call("POST", "/v1/fixes/\(Self.fix)/enrollments", json: #"{"testers":["\#(aiko)","\#(ben)"]}"#)
        for body in [FeedbackRoutesTests.passing(aiko), ConsoleConformanceReportTests.feedback(ben, "failed")] {
            #expect(try server.call("POST", "/v1/fixes/\(Self.fix)/feedback", json: body).status == 201)
        }
        if withdrawing { #expect(try server.call("POST", "/v1/testers/\(ben)/withdraw", json: "{}").status == 200) }
        return (server, aiko, ben)
    }

    @Test func herExportHoldsHerOwnAssertionsByHerPseudonym() throws {
        let (server, aiko, ben) = try world(withdrawing: false)
        let export = try server.call("GET", "/v1/testers/\(aiko)/export")
        #expect(export.status == 200)
        let graph = try #require(export.json["evidence"]?["@graph"]?.arrayValue)
        #expect(graph.count == 2, "her one record, once per criterion of the fix")
        for assertion in graph {
            #expect(assertion["@type"]?.stringValue == "earl:Assertion")
            #expect(assertion["earl:assertedBy"]?["foaf:nick"]?.stringValue == aiko)
            #expect(assertion["earl:result"]?["earl:outcome"]?["@id"]?.stringValue == "earl:passed")
            #expect(assertion["earl:subject"]?["fix"]?.stringValue == Self.fix)
        }
        #expect(Set(graph.compactMap { $0["earl:test"]?["dct:identifier"]?.stringValue }) == ["1.1.1", "4.1.2"])
        #expect(export.json["evidence"]?["@context"]?["earl"]?.stringValue == "http://www.w3.org/ns/earl#", "the context inline")
        #expect(!export.text.contains(ben), "nobody else's evidence")
        let evidence = JSONWriter.string(try #require(export.json["evidence"]))
        #expect(export.text.contains("Some issues, but usable") && !evidence.contains("Some issues, but usable"),
                "her comment is in her feedback, never in evidence")

        // Her own download in the console is the same file.
        let browser = try server.testerBrowser(aiko)
        let download = try browser.get("/console/my-data/export")
        #expect(download.status == 200)
        let file = try JSONParser.parse(download.html)
        #expect(file["evidence"]?["@graph"]?.arrayValue?.count == 2)
        #expect(!download.html.contains(ben))
    }

    @Test func aWithdrawnTesterIsWithdrawnInEveryExportWithNothingErased() throws {
        let (server, aiko, ben) = try world(withdrawing: true)
        // EARL: her verdicts stay, by "withdrawn", without what she heard or ran.
        let earl = try server.call("GET", "/v1/fixes/\(Self.fix)/evidence")
        #expect(earl.status == 200)
        let graph = try #require(earl.json["@graph"]?.arrayValue)
        #expect(graph.count == 4)
        let hers = graph.filter { $0["earl:assertedBy"]?["foaf:nick"]?.stringValue == "withdrawn" }
        #expect(hers.count == 2)
        for assertion in hers {
            #expect(assertion["earl:result"]?["earl:outcome"]?["@id"]?.stringValue == "earl:failed")
            #expect(assertion["earl:subject"]?["osVersion"] == nil && assertion["earl:subject"]?["appBuild"] == nil)
            #expect(assertion["earl:assertedBy"]?["assistiveTechnology"]?["doap:revision"] == nil)
        }
        // The report, as YAML, Markdown and the console page: her verdict counts, she is nowhere.
        let yaml = try server.call("GET", "/v1/reports/acr?fixes=\(Self.fix)")
        let markdown = try server.call("GET", "/v1/reports/acr?fixes=\(Self.fix)&format=markdown")
        let page = try server.signedInBrowser(role: "maintainer", name: "maria").get("/console/reports/acr?fixes=\(Self.fix)")
        for (label, text) in [("yaml", yaml.text), ("markdown", markdown.text), ("page", page.html)] {
            #expect(text.contains("Failed: 1 tester with VoiceOver on iOS"), "\(label): her verdict counts")
            #expect(!text.contains(ben) && !text.contains("Ben"), "\(label) names her")
        }
        #expect(page.html.contains("Partially supports"))
        // Her export after withdrawal: nothing of her evidence is linked to her any more.
        let hersNow = try server.call("GET", "/v1/testers/\(ben)/export")
        #expect(hersNow.status == 200)
        #expect(hersNow.json["tester"]?["status"]?.stringValue == "withdrawn")
        #expect(hersNow.json["evidence"]?["@graph"]?.arrayValue == [], "\(hersNow.text)")
        #expect(hersNow.json["feedback"]?.arrayValue == [])
        // Aiko's export does not carry her either.
        let aikos = try server.call("GET", "/v1/testers/\(aiko)/export")
        #expect(!aikos.text.contains(ben) && !aikos.text.contains(#""foaf:nick":"withdrawn""#))
    }
}
