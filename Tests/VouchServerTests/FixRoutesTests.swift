import Foundation
import Testing
import VouchJSON

@Suite(.serialized) struct FixRoutesTests {
    @Test func createShowListAndPatch() throws {
        let server = try InProcessServer()
        let created = try server.call("POST", "/v1/fixes", json: InProcessServer.channelSelectorFix)
        #expect(created.status == 201)
        #expect(created.headers["location"] == "/v1/fixes/tv-channel-selector-labels")
        #expect(created.json["state"]?.stringValue == "draft")
        #expect(created.json["revision"]?.intValue == 1)
        #expect(created.json["author"]?.stringValue == "admin")
        #expect(created.json["ui_area"]?.stringValue == "TV channel selector")
        let shown = try server.call("GET", "/v1/fixes/tv-channel-selector-labels")
        #expect(shown.json == created.json)
        let patched = try server.call("PATCH", "/v1/fixes/tv-channel-selector-labels", json: #"{"description":"Logos get labels","wcag":["4.1.2"]}"#)
        #expect(patched.status == 200)
        #expect(patched.json["description"]?.stringValue == "Logos get labels")
        #expect(patched.json["wcag"] == .strings(["4.1.2"]))
        #expect(patched.json["title"]?.stringValue == "Label channel logos")
    }

    @Test func aFixKeepsTheLanguageItsTextIsWrittenIn() throws {
        var settings = InProcessServer.testSettings()
        settings.console.defaultLanguage = "ja"
        let server = try InProcessServer(settings: settings)
        let created = try server.call("POST", "/v1/fixes", json: InProcessServer.channelSelectorFix)
        #expect(created.json["language"]?.stringValue == "ja", "console.default_language")
        let english = try server.call("PATCH", "/v1/fixes/tv-channel-selector-labels", json: #"{"language":"en"}"#)
        #expect(english.status == 200)
        #expect(english.json["language"]?.stringValue == "en")
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels").json["language"]?.stringValue == "en", "stored")
        let refused = try server.call("PATCH", "/v1/fixes/tv-channel-selector-labels", json: #"{"language":"fr","title":""}"#)
        #expect(refused.status == 422)
        #expect(refused.errorFields.sorted() == ["language", "title"])
        let made = try server.call("POST", "/v1/fixes", json: #"{"key":"menu-fix","title":"メニュー","ui_area":"メインメニュー","platforms":["ios"],"language":"ja"}"#)
        #expect(made.status == 201)
        #expect(made.json["language"]?.stringValue == "ja")
    }

    @Test func invalidCreateNamesEveryFieldAndStoresNothing() throws {
        let server = try InProcessServer()
        let answer = try server.call("POST", "/v1/fixes", json: #"{"key":"Bad Key","title":"","platforms":["ios","tv"],"wcag":["4.1.1","9.9.9"],"state":"released","colour":"red"}"#)
        #expect(answer.status == 422)
        #expect(answer.headers["content-type"] == "application/problem+json")
        #expect(answer.json["type"]?.stringValue?.isEmpty == false)
        #expect(answer.json["status"]?.intValue == 422)
        let fields = answer.errorFields
        for field in ["key", "title", "ui_area", "platforms[1]", "wcag[0]", "wcag[1]", "state", "colour"] {
            #expect(fields.contains(field), "missing \(field) in \(fields)")
        }
        let wcagMessage = answer.json["errors"]?.arrayValue?.first { $0["field"]?.stringValue == "wcag[0]" }?["message"]?.stringValue
        #expect(wcagMessage?.contains("removed from WCAG 2.2") == true)
        #expect(try server.call("GET", "/v1/fixes").json["fixes"]?.arrayValue?.isEmpty == true)
    }

    @Test func wrongTypesAreNamed() throws {
        let server = try InProcessServer()
        let answer = try server.call("POST", "/v1/fixes", json: #"{"key":"k","title":5,"ui_area":"A","platforms":"ios"}"#)
        #expect(answer.status == 422)
        #expect(Set(answer.errorFields) == ["title", "platforms"])
    }

    @Test func duplicateKeyIs409() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let again = try server.call("POST", "/v1/fixes", json: InProcessServer.channelSelectorFix)
        #expect(again.status == 409)
        #expect(again.json["detail"]?.stringValue?.contains("already exists") == true)
    }

    @Test func malformedBodiesAndMediaTypes() throws {
        let server = try InProcessServer()
        let malformed = try server.call("POST", "/v1/fixes", json: #"{"key": "#)
        #expect(malformed.status == 400)
        #expect(malformed.json["detail"]?.stringValue?.contains("not valid JSON") == true)
        #expect(try server.call("POST", "/v1/fixes", json: "key=x", contentType: "application/x-www-form-urlencoded").status == 415)
        #expect(try server.call("POST", "/v1/fixes", json: "[1]").status == 422)
        #expect(try server.call("POST", "/v1/fixes").status == 400)
    }

    @Test func bodyOverTheLimitIs413WhetherAnnouncedOrNot() throws {
        let server = try InProcessServer(maxBodyBytes: 1_024)
        let big = #"{"key":"k","title":""# + String(repeating: "a", count: 2_000) + #""}"#
        let announced = try server.call("POST", "/v1/fixes", json: big)
        #expect(announced.status == 413)
        #expect(announced.json["detail"]?.stringValue?.contains("1024") == true)
        let chunked = try server.call("POST", "/v1/fixes", json: big, headers: [("Transfer-Encoding", "chunked")])
        #expect(chunked.status == 413)
        #expect(try server.call("GET", "/v1/fixes").json["fixes"]?.arrayValue?.isEmpty == true)
    }

    @Test func unknownRoutesAndMethods() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        #expect(try server.call("GET", "/v1/nothing").status == 404)
        #expect(try server.call("GET", "/v1/fixes/missing").status == 404)
        let wrongMethod = try server.call("DELETE", "/v1/fixes/tv-channel-selector-labels")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"]?.contains("PATCH") == true)
        let unknownAction = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/explode")
        #expect(unknownAction.status == 404)
        #expect(unknownAction.json["detail"]?.stringValue?.contains("start, revise, pause, resume, abandon, rollback") == true)
    }

    @Test func lifecycleOverHTTPWithConflictNamingStates() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let path = "/v1/fixes/tv-channel-selector-labels"
        #expect(try server.call("POST", path + "/start").json["state"]?.stringValue == "testing")
        let revised = try server.call("POST", path + "/revise", json: #"{"note":"build 412 adds the selected state"}"#)
        #expect(revised.json["revision"]?.intValue == 2)
        #expect(try server.call("POST", path + "/pause").json["state"]?.stringValue == "paused")
        let conflict = try server.call("POST", path + "/start")
        #expect(conflict.status == 409)
        let detail = conflict.json["detail"]?.stringValue ?? ""
        #expect(detail.contains("paused"))
        #expect(detail.contains("resume"))
        #expect(try server.call("POST", path + "/resume").json["state"]?.stringValue == "testing")
        #expect(try server.call("POST", path + "/abandon").json["state"]?.stringValue == "abandoned")
        #expect(try server.call("POST", path + "/resume").status == 409)
        let badNote = try server.call("POST", path + "/revise", json: #"{"reason":"wrong field"}"#)
        #expect(badNote.status == 422)
        #expect(badNote.errorFields == ["reason"])
    }

    @Test func listFiltersByStateAndPages() throws {
        let server = try InProcessServer()
        for index in 0..<5 {
            try server.call("POST", "/v1/fixes", json: #"{"key":"fix-\#(index)","title":"T","ui_area":"Area","platforms":["web"]}"#)
        }
        try server.call("POST", "/v1/fixes/fix-3/start")
        let firstPage = try server.call("GET", "/v1/fixes?limit=2")
        #expect(firstPage.json["fixes"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == ["fix-0", "fix-1"])
        let cursor = try #require(firstPage.json["next_cursor"]?.stringValue)
        let secondPage = try server.call("GET", "/v1/fixes?limit=2&cursor=\(cursor)")
        #expect(secondPage.json["fixes"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == ["fix-2", "fix-3"])
        let lastPage = try server.call("GET", "/v1/fixes?limit=2&cursor=\(try #require(secondPage.json["next_cursor"]?.stringValue))")
        #expect(lastPage.json["next_cursor"] == .null)
        #expect(try server.call("GET", "/v1/fixes?state=testing").json["fixes"]?.arrayValue?.count == 1)
        let badState = try server.call("GET", "/v1/fixes?state=shipped")
        #expect(badState.status == 422)
        #expect(badState.errorFields == ["state"])
        #expect(try server.call("GET", "/v1/fixes?limit=0").errorFields == ["limit"])
        #expect(try server.call("GET", "/v1/fixes?cursor=!!!").errorFields == ["cursor"])
    }

    @Test func targetsValidateAndChangeTheFlag() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let bad = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["", 5],"drop":[]}"#)
        #expect(bad.status == 422)
        #expect(Set(bad.errorFields) == ["add[0]", "add[1]", "drop"])
        let added = try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["qa-device","user-1"]}"#)
        #expect(added.json["targets"] == .strings(["qa-device", "user-1"]))
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "qa-device").json["value"] == .bool(true))
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"remove":["qa-device"]}"#)
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "qa-device").json["value"] == .bool(false))
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels/targets").json["targets"] == .strings(["user-1"]))
        #expect(try server.call("POST", "/v1/fixes/missing/targets", json: #"{"add":["a"]}"#).status == 404)
    }

    @Test func everyMutationIsAudited() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/targets", json: #"{"add":["user-1"]}"#)
        try server.call("PATCH", "/v1/fixes/tv-channel-selector-labels", json: #"{"title":"Label the channel logos"}"#)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/pause")
        let audit = try server.call("GET", "/v1/audit?fix=tv-channel-selector-labels")
        let events = try #require(audit.json["events"]?.arrayValue)
        #expect(events.compactMap { $0["action"]?.stringValue } == ["fix.create", "fix.start", "fix.targets", "fix.update", "fix.pause"])
        #expect(events.allSatisfy { $0["principal"]?.stringValue == "admin" && $0["at"]?.stringValue != nil })
        #expect(events[1]["before"]?["state"]?.stringValue == "draft")
        #expect(events[1]["after"]?["state"]?.stringValue == "testing")
        // A refused request changes nothing and leaves no event.
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        #expect(try server.call("GET", "/v1/audit?fix=tv-channel-selector-labels").json["events"]?.arrayValue?.count == 5)
    }
}
