import Foundation
import Testing
import VouchDomain
@testable import VouchServer
import VouchStore

/// The maintainer's fix pages: create, edit, start, revise, abandon, direct targets and enrolled testers, through HTTP
/// as a browser sends them.
struct ConsoleMaintainerTests {
    static let key = "tv-channel-selector-labels"
    static let fixFields = [("key", key), ("title", "Label channel logos"), ("ui_area", "TV channel selector"), ("platforms", "ios"),
                            ("platforms", "android"), ("wcag", "1.1.1, 4.1.2"), ("expected_announcement", "NHK, button, selected"),
                            ("description", "")]

    /// A server with the channel selector fix as a draft, and a maintainer's browser.
    static func maintainerWithFix() throws -> (InProcessServer, ConsoleBrowser) {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        return (server, try server.signedInBrowser(role: "maintainer"))
    }

    @Test func creatingAFixSendsToItsPage() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer", name: "mo")
        let form = try browser.get("/console/new-fix")
        #expect(form.status == 200)
        #expect(form.html.contains("<title>Create a fix – Vouch</title>"))
        #expect(form.html.contains(FixKey.rule.replacingOccurrences(of: "'", with: "&#39;")))
        #expect(!form.html.contains("checked"), "no platform is chosen for the maintainer")
        let created = try browser.submit("/console/new-fix", Self.fixFields)
        #expect(created.status == 303)
        #expect(created.location == "/console/fixes/\(Self.key)?done=created")
        let fix = try #require(try server.store.fix(Self.key))
        #expect(fix.title == "Label channel logos")
        #expect(fix.platforms == [.ios, .android])
        #expect(fix.wcag == ["1.1.1", "4.1.2"])
        #expect(fix.expectedAnnouncement == "NHK, button, selected")
        #expect(fix.description == nil)
        #expect(fix.author == "mo")
        #expect(fix.state == .draft)
    }

    @Test func everyInvalidFieldIsShownBesideItAndInTheSummaryWithWhatWasTyped() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer")
        let page = try browser.submit("/console/new-fix", [("key", "Channel Logos"), ("title", ""), ("ui_area", " "), ("wcag", "9.9.9, 4.1.1"),
                                                             ("expected_announcement", "NHK <button>"), ("description", "")])
        #expect(page.status == 422)
        #expect(page.html.contains("<title>Error: Create a fix – Vouch</title>"))
        #expect(page.summaryLinks == ["#field-key", "#field-title", "#field-ui-area", "#field-platforms", "#field-wcag"])
        #expect(page.html.contains("Title must not be empty"))
        #expect(page.html.contains("Platforms must name at least one of ios, android, web"))
        #expect(page.html.contains("WCAG success criteria: &#39;9.9.9&#39; is not a WCAG 2.2 success criterion"))
        #expect(page.html.contains("4.1.1 Parsing (Obsolete and removed) was removed from WCAG 2.2"))
        #expect(page.html.contains("<p id=\"field-title-error\" class=\"error-message\">"))
        #expect(page.html.contains("value=\"Channel Logos\""), "the key is kept as typed")
        #expect(page.html.contains("value=\"9.9.9, 4.1.1\""))
        #expect(page.html.contains("value=\"NHK &lt;button&gt;\""), "typed text comes back escaped")
        #expect(page.html.contains("class=\"error-summary\" tabindex=\"-1\" autofocus"))
        #expect(try server.store.fixes(state: nil, after: nil, limit: 10).isEmpty)
    }

    @Test func aKeyInUseIsAnErrorOnTheKey() throws {
        let (server, browser) = try Self.maintainerWithFix()
        let page = try browser.submit("/console/new-fix", Self.fixFields)
        #expect(page.status == 422)
        #expect(page.summaryLinks == ["#field-key"])
        #expect(page.html.contains("A fix with the key &#39;\(Self.key)&#39; already exists: choose another key"))
        #expect(page.html.contains("value=\"Label channel logos\""))
        #expect(try server.store.fix(Self.key)?.platforms == [.ios], "the fix in place is untouched")
    }

    @Test func editingChangesTheDetailsAndAnEmptiedOptionalFieldClearsIt() throws {
        let (server, browser) = try Self.maintainerWithFix()
        let form = try browser.get("/console/fixes/\(Self.key)/edit")
        #expect(form.status == 200)
        #expect(form.html.contains("<title>Edit fix: Label channel logos – Vouch</title>"))
        #expect(form.html.contains("value=\"NHK, button, selected\""))
        #expect(form.html.contains("value=\"1.1.1, 4.1.2\""))
        #expect(form.html.contains("value=\"ios\" checked"))
        #expect(!form.html.contains("name=\"key\""), "the key cannot change")
        let refused = try browser.submit("/console/fixes/\(Self.key)/edit", [("title", ""), ("ui_area", "TV channel selector"), ("platforms", "ios")])
        #expect(refused.status == 422)
        #expect(refused.html.contains("<title>Error: Edit fix: Label channel logos – Vouch</title>"))
        #expect(refused.summaryLinks == ["#field-title"])
        let edited = try browser.submit("/console/fixes/\(Self.key)/edit", [("title", "Label the channel logos"), ("ui_area", "TV channel selector"),
                                                                            ("platforms", "ios"), ("platforms", "web"), ("wcag", "1.1.1 4.1.2"),
                                                                            ("expected_announcement", ""), ("description", "Build 812")])
        #expect(edited.status == 303)
        #expect(edited.location == "/console/fixes/\(Self.key)?done=edited")
        let fix = try #require(try server.store.fix(Self.key))
        #expect(fix.title == "Label the channel logos")
        #expect(fix.platforms == [.ios, .web])
        #expect(fix.expectedAnnouncement == nil)
        #expect(fix.description == "Build 812")
        #expect(fix.revision == 1, "editing details is not a new revision")
    }

    @Test func startReviseAndAbandonSayWhatHappensThenDoIt() throws {
        let (server, browser) = try Self.maintainerWithFix()
        let start = try browser.get("/console/fixes/\(Self.key)/start")
        #expect(start.status == 200)
        #expect(start.html.contains("<h1 class=\"heading-l\">Start testing Label channel logos?</h1>"))
        #expect(start.html.contains("the 0 testers enrolled in this fix and for its 0 direct targets"))
        #expect(start.html.contains("No tester is enrolled and no key is targeted directly"))
        let started = try browser.submit("/console/fixes/\(Self.key)/start", [])
        #expect(started.status == 303)
        #expect(started.location == "/console/fixes/\(Self.key)?done=started")
        #expect(try server.store.fix(Self.key)?.state == .testing)

        let again = try browser.get("/console/fixes/\(Self.key)/start")
        #expect(again.html.contains("You cannot start testing this fix now"))
        #expect(again.html.contains("State of the fix: <strong class=\"tag tag--waiting\">In testing</strong>"))
        #expect(!again.html.contains("Start testing</button>"))
        let conflict = try browser.submit("/console/fixes/\(Self.key)/start", from: "/console/", [])
        #expect(conflict.status == 409)
        #expect(conflict.html.contains("Testing starts from a draft"))

        let revise = try browser.get("/console/fixes/\(Self.key)/revise")
        #expect(revise.html.contains("from revision 1 to revision 2"))
        #expect(revise.html.contains("Approvals given for revision 1 no longer count"))
        let noNote = try browser.submit("/console/fixes/\(Self.key)/revise", [("note", " ")])
        #expect(noNote.status == 422)
        #expect(noNote.html.contains("<title>Error: Revise Label channel logos? – Vouch</title>"))
        #expect(noNote.summaryLinks == ["#field-note"])
        let tooLong = try browser.submit("/console/fixes/\(Self.key)/revise", [("note", String(repeating: "b", count: 1_001))])
        #expect(tooLong.status == 422)
        #expect(tooLong.html.contains("What changed must be at most 1000 characters, got 1001"))
        #expect(tooLong.html.contains(String(repeating: "b", count: 1_001) + "</textarea>"), "the note is kept")
        let revised = try browser.submit("/console/fixes/\(Self.key)/revise", [("note", "Build 813 labels the logos")])
        #expect(revised.location == "/console/fixes/\(Self.key)?done=revised")
        #expect(try server.store.fix(Self.key)?.revision == 2)

        let abandon = try browser.get("/console/fixes/\(Self.key)/abandon")
        #expect(abandon.html.contains("The flag turns off for everyone, for good"))
        #expect(abandon.html.contains("<button type=\"submit\" class=\"button button--warning\">Abandon fix</button>"))
        let abandoned = try browser.submit("/console/fixes/\(Self.key)/abandon", [])
        #expect(abandoned.location == "/console/fixes/\(Self.key)?done=abandoned")
        #expect(try server.store.fix(Self.key)?.state == .abandoned)
    }

    @Test func directTargetsAreAddedAndRemoved() throws {
        let (server, browser) = try Self.maintainerWithFix()
        let page = try browser.get("/console/fixes/\(Self.key)/targets")
        #expect(page.status == 200)
        #expect(page.html.contains("A direct target is a targeting key"))
        #expect(page.html.contains("None yet"))
        let empty = try browser.submit("/console/fixes/\(Self.key)/targets", [("add", " \n, ")])
        #expect(empty.status == 422)
        #expect(empty.summaryLinks == ["#field-add"])
        let long = String(repeating: "k", count: 257)
        let refused = try browser.submit("/console/fixes/\(Self.key)/targets", [("add", "qa-ok\n\(long)")])
        #expect(refused.status == 422)
        #expect(refused.summaryLinks == ["#field-add"])
        #expect(refused.html.contains("Targeting keys to add &#39;\(long)&#39; must be at most 256 characters"))
        #expect(refused.html.contains("qa-ok\n\(long)</textarea>"), "what was typed is kept")
        #expect(try server.store.targets(of: Self.key).isEmpty)

        let added = try browser.submit("/console/fixes/\(Self.key)/targets", [("add", "qa-iphone-15\nqa-pixel-8, qa-web")])
        #expect(added.status == 303)
        #expect(added.location == "/console/fixes/\(Self.key)/targets?done=added")
        #expect(try server.store.targets(of: Self.key) == ["qa-iphone-15", "qa-pixel-8", "qa-web"])
        let shown = try browser.get(try #require(added.location))
        #expect(shown.html.contains("Targeting keys added"))
        #expect(shown.html.contains("name=\"remove\" type=\"checkbox\" value=\"qa-pixel-8\""))

        let nothing = try browser.submit("/console/fixes/\(Self.key)/targets", [("change", "remove")])
        #expect(nothing.status == 422)
        #expect(nothing.summaryLinks == ["#field-remove"])
        let removed = try browser.submit("/console/fixes/\(Self.key)/targets", [("change", "remove"), ("remove", "qa-pixel-8")])
        #expect(removed.location == "/console/fixes/\(Self.key)/targets?done=removed")
        #expect(try server.store.targets(of: Self.key) == ["qa-iphone-15", "qa-web"])
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        #expect(try server.evaluate(Self.key, targetingKey: "qa-web").json["value"] == .bool(true))
        #expect(try server.evaluate(Self.key, targetingKey: "qa-pixel-8").json["value"] == .bool(false))
    }

    @Test func testersAreEnrolledByNameAndRemovedAfterAConfirmation() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let aiko = try server.createTester()
        let ben = try server.createTester(name: "Ben Okafor", keys: ["user-9"], technology: "talkback:android:15")
        let gone = try server.createTester(name: "Gone Tester", keys: ["user-10"])
        #expect(try server.call("POST", "/v1/testers/\(gone)/withdraw", json: "{}").status == 200)
        let browser = try server.signedInBrowser(role: "maintainer")
        let page = try browser.get("/console/fixes/\(Self.key)/enrollments")
        #expect(page.status == 200)
        #expect(page.html.contains("No tester is enrolled yet."))
        #expect(page.html.contains("Aiko Tanaka (\(aiko))"))
        #expect(page.html.contains("TalkBack on Android, version 15"))
        #expect(!page.html.contains(gone), "a withdrawn tester cannot be enrolled")
        let none = try browser.submit("/console/fixes/\(Self.key)/enrollments", [])
        #expect(none.status == 422)
        #expect(none.summaryLinks == ["#field-testers"])
        let enrolled = try browser.submit("/console/fixes/\(Self.key)/enrollments", [("testers", aiko), ("testers", ben)])
        #expect(enrolled.location == "/console/fixes/\(Self.key)/enrollments?done=enrolled")
        #expect(try server.store.enrollments(of: Self.key).map(\.testerID).sorted() == [aiko, ben].sorted())
        let list = try browser.get(try #require(enrolled.location))
        #expect(list.html.contains("Testers enrolled"))
        #expect(list.html.contains("Remove<span class=\"visually-hidden\"> Aiko Tanaka from this fix</span>"))
        #expect(list.html.contains("Every active tester is enrolled already"))

        let confirm = try browser.get("/console/fixes/\(Self.key)/enrollments/\(aiko)/remove")
        #expect(confirm.html.contains("<h1 class=\"heading-l\">Remove Aiko Tanaka from Label channel logos?</h1>"))
        let removed = try browser.submit("/console/fixes/\(Self.key)/enrollments/\(aiko)/remove", [])
        #expect(removed.location == "/console/fixes/\(Self.key)/enrollments?done=unenrolled")
        #expect(try server.store.enrollments(of: Self.key).map(\.testerID) == [ben])
        #expect(try browser.get("/console/fixes/\(Self.key)/enrollments/\(aiko)/remove").status == 404, "no longer enrolled")
    }

    @Test func aReleaseManagerCannotOpenOrPostTheMaintainersPages() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let tester = try server.createTester()
        try server.call("POST", "/v1/fixes/\(Self.key)/enrollments", json: #"{"testers":["\#(tester)"]}"#)
        let browser = try server.signedInBrowser(role: "release_manager", name: "rita")
        let csrf = try #require(try browser.get("/console/").csrf)
        let paths = ["/console/new-fix", "/console/fixes/\(Self.key)/edit", "/console/fixes/\(Self.key)/start", "/console/fixes/\(Self.key)/revise",
                     "/console/fixes/\(Self.key)/abandon", "/console/fixes/\(Self.key)/targets", "/console/fixes/\(Self.key)/enrollments",
                     "/console/fixes/\(Self.key)/enrollments/\(tester)/remove"]
        for path in paths {
            // The direct targets are read by every staff role, as in the API; only the forms are refused.
            let reads = path.hasSuffix("/targets")
            #expect(try browser.get(path).status == (reads ? 200 : 403), "\(path)")
            let posted = try browser.post(path, [("csrf", csrf), ("title", "x"), ("note", "x"), ("add", "x"), ("testers", tester)])
            #expect(posted.status == 403, "\(path)")
            #expect(posted.html.contains("You cannot do this"))
        }
        // The refusal says roles in words, as a person says them, never the API's identifiers.
        let refusal = try browser.get("/console/new-fix").html
        #expect(refusal.contains("Your role, release manager, may not do this: it needs an administrator or a maintainer, who may create and change fixes."))
        #expect(!refusal.contains("release_manager"))
        let fix = try #require(try server.store.fix(Self.key))
        #expect(fix.state == .draft && fix.revision == 1 && fix.title == "Label channel logos")
        #expect(try server.store.enrollments(of: Self.key).count == 1)
        #expect(!(try browser.get("/console/").html.contains("/console/new-fix")), "the overview offers only what the role may do")
        try server.call("POST", "/v1/fixes/\(Self.key)/targets", json: #"{"add":["qa-iphone-15"]}"#)
        let targets = try browser.get("/console/fixes/\(Self.key)/targets")
        #expect(targets.html.contains("<li><code>qa-iphone-15</code></li>") && !targets.html.contains("<form method=\"post\" action=\"/console/fixes/\(Self.key)/targets\""))
        #expect(try browser.get("/console/fixes/\(Self.key)").html.contains("href=\"/console/fixes/\(Self.key)/targets\""))
        #expect(try server.signedInBrowser(role: "maintainer").get("/console/").html.contains("<a href=\"/console/new-fix\" class=\"button\">Create a fix</a>"))
    }

    @Test func aFormWithoutTheSessionsCSRFTokenChangesNothing() throws {
        let (server, browser) = try Self.maintainerWithFix()
        #expect(try browser.post("/console/new-fix", Self.fixFields.map { $0.0 == "key" ? ("key", "another-fix") : $0 }).status == 403)
        #expect(try browser.post("/console/fixes/\(Self.key)/start", [("csrf", "forged")]).status == 403)
        #expect(try browser.post("/console/fixes/\(Self.key)/targets", [("add", "qa-1")]).status == 403)
        #expect(try server.store.fix("another-fix") == nil)
        #expect(try server.store.fix(Self.key)?.state == .draft)
        #expect(try server.store.targets(of: Self.key).isEmpty)
    }

    @Test func anUnknownFixIsNotFound() throws {
        let server = try InProcessServer()
        let browser = try server.signedInBrowser(role: "maintainer")
        for path in ["/console/fixes/no-such-fix/edit", "/console/fixes/no-such-fix/start", "/console/fixes/no-such-fix/targets", "/console/fixes/no-such-fix/enrollments"] {
            let page = try browser.get(path)
            #expect(page.status == 404, "\(path)")
            #expect(page.html.contains("There is no fix with the key &#39;no-such-fix&#39;."))
        }
    }
}

extension ConsoleMaintainerTests {
    @Test func theFixPageSaysWhatTheMaintainerJustDid() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let browser = try server.signedInBrowser()
        let expectations = ["created": "created as a draft", "edited": "changes to the fix are saved", "started": "Testing has started",
                            "revised": "new revision", "abandoned": "is abandoned"]
        for (flag, words) in expectations {
            let page = try browser.get("/console/fixes/tv-channel-selector-labels?done=\(flag)")
            #expect(page.html.contains("role=\"alert\""), "\(flag)")
            #expect(page.html.contains(words), "\(flag)")
        }
        #expect(!(try browser.get("/console/fixes/tv-channel-selector-labels?done=unknown")).html.contains("role=\"alert\""))
    }
}
