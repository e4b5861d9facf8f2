import Foundation
import Testing
import VouchJSON
@testable import VouchServer
import VouchTestSupport

/// The console's words for push per token and webhook formats: the token list says which tokens have no push, the
/// webhook form offers the formats (none chosen for the person) and the list says each webhook's format.
@Suite struct ConsoleReceiverTests {
    @Test func theTokenListSaysWhichTokensHaveNoPush() throws {
        let server = try InProcessServer()
        #expect(try server.call("POST", "/v1/tokens", json: #"{"name":"android app","role":"sdk","event_streams":false}"#).status == 201)
        let browser = try server.signedInBrowser()
        let list = try browser.get("/console/tokens")
        #expect(list.status == 200)
        #expect(list.html.contains("No push: its flag answers carry no event stream, for apps that poll"))
        #expect(list.html.components(separatedBy: "No push:").count == 2, "only the token made without push says so")
    }

    @Test func theWebhookFormOffersTheFormatsAndTheListSaysWhichOne() throws {
        var settings = InProcessServer.testSettings()
        settings.console.publicURL = "https://vouch.example.org"
        let server = try InProcessServer(settings: settings)
        let browser = try server.signedInBrowser()
        let form = try browser.get("/console/webhooks/new")
        for words in ["Format", "Standard Webhooks, signed", "GitHub repository dispatch, which starts a workflow",
                      "Slack message in words, with a link to the fix", "Token file, for a GitHub repository dispatch only"] {
            #expect(form.html.contains(words), "\(words)")
        }
        #expect(!form.html.contains(" checked"), "no format is chosen for the person")
        let csrf = try #require(form.csrf)
        let fields = [("csrf", csrf), ("url", "http://127.0.0.1:9/services/T0/B0/X"), ("format", "slack"), ("enabled", "true")]
        // A Slack webhook cannot hold a promotion: the service's words are shown on the question that asked.
        let required = try browser.post("/console/webhooks/new", fields + [("required", "true")])
        #expect(required.status == 422)
        #expect(required.html.contains("href=\"#field-required\""), "\(required.html)")
        #expect(required.html.contains("cannot be required for promotion"))
        #expect(required.html.contains("name=\"format\" type=\"radio\" value=\"slack\" checked"))
        #expect(try browser.post("/console/webhooks/new", fields + [("required", "false")]).status == 303)
        let list = try browser.get("/console/webhooks")
        #expect(list.html.contains("<span class=\"hint\">Slack message in words, with a link to the fix</span>"), "\(list.html)")
        let id = try #require(try server.call("GET", "/v1/webhooks").json["webhooks"]?.arrayValue?.first?["id"]?.stringValue)
        #expect(try server.call("GET", "/v1/webhooks/\(id)").json["format"]?.stringValue == "slack")
        // Changing it starts from the format it has, and may change it: back to Standard Webhooks here.
        let edit = try browser.get("/console/webhooks/\(id)/edit")
        #expect(edit.html.contains("name=\"format\" type=\"radio\" value=\"slack\" checked"), "\(edit.html)")
        let editCSRF = try #require(edit.csrf)
        let changed = try browser.post("/console/webhooks/\(id)/edit", [("csrf", editCSRF), ("url", "http://127.0.0.1:9/hook"),
                                                                         ("events", "fix.promoted"), ("required", "false"), ("format", "standard")])
        #expect(changed.status == 303, "\(changed.html)")
        #expect(try server.call("GET", "/v1/webhooks/\(id)").json["format"]?.stringValue == "standard")
    }
}
