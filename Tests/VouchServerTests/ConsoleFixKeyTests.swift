import Foundation
import Testing
@testable import VouchServer

/// Every fix key has its pages, even one spelled like an action: the form that creates a fix lives outside
/// `/console/fixes/`, where the segment after it always names a fix.
struct ConsoleFixKeyTests {
    @Test(arguments: ["new", "edit", "targets", "criteria", "decision", "enrollments"])
    func aFixKeyedLikeAnActionHasItsPages(key: String) throws {
        let server = try InProcessServer()
        let created = try server.call("POST", "/v1/fixes", json: #"{"key":"\#(key)","title":"Fix called \#(key)","ui_area":"Menu","platforms":["ios"],"wcag":["4.1.2"]}"#)
        #expect(created.status == 201)
        let browser = try server.signedInBrowser()
        let page = try browser.get("/console/fixes/\(key)")
        #expect(page.status == 200 && page.html.contains("<h1 class=\"heading-l\">Fix called \(key)</h1>"))
        for sub in ["edit", "targets", "enrollments", "criteria"] {
            #expect(try browser.get("/console/fixes/\(key)/\(sub)").html.contains("Fix called \(key)"), "\(sub)")
        }
        #expect(try browser.get("/console/new-fix").html.contains("<title>Create a fix – Vouch</title>"))
    }
}
