import Foundation
import Testing
import VouchClient
import VouchDomain
import VouchJSON
import VouchServices
@testable import VouchServer
@testable import VouchServerKit
import VouchTestSupport

/// Notifications by email, end to end: vouchd queues them with the change that causes them, its worker sends them
/// through libcurl to a real SMTP server (aiosmtpd, `SMTPSink`), and the mail's one-click unsubscribe works
/// (docs/notifications.md).
@Suite(.serialized) struct NotificationMailTests {
    static let consoleURL = "https://vouch.example.org"

    static func settings(port: Int) -> ApplicationSettings {
        var settings = InProcessServer.testSettings()
        settings.console = ConsoleSettings(publicURL: consoleURL)
        settings.mail = MailSettings(smtpURL: "smtp://127.0.0.1:\(port)", from: "vouch@example.org", timeoutSeconds: 5, retryDelays: [0, 1])
        return settings
    }

    /// A started fix and a tester with an address, who chose Japanese when she joined or not.
    static func enrollTester(on server: InProcessServer, email: String = "aiko@example.org") throws -> String {
        try server.call("POST", "/v1/fixes", json: #"{"key":"tv-labels","title":"Label the channel logos","ui_area":"TV channel selector","platforms":["ios"]}"#)
        try server.call("POST", "/v1/fixes/tv-labels/start")
        let tester = try server.call("POST", "/v1/testers", json: #"""
            {"name":"Aiko","email":"\#(email)","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["user-1"],"consent":"2026-11"}
            """#)
        #expect(tester.status == 201, "\(tester.text)")
        let id = try #require(tester.json["id"]?.stringValue)
        #expect(tester.json["email"]?.stringValue == email)
        let enrolled = try server.call("POST", "/v1/fixes/tv-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        #expect(enrolled.status == 200, "\(enrolled.text)")
        return id
    }

    static func waitForMails(_ sink: SMTPSink, count: Int, seconds: Double = 15) throws -> [ReceivedMail] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let mails = try sink.received()
            if mails.count >= count { return mails }
            usleep(50_000)
        }
        return try sink.received()
    }

    /// The notifications with `status` once `count` of them have had an attempt.
    static func waitForStatus(_ server: InProcessServer, _ status: String, count: Int) throws -> [JSONValue] {
        let deadline = Date().addingTimeInterval(10)
        var found: [JSONValue] = []
        while Date() < deadline {
            found = try server.call("GET", "/v1/notifications?status=\(status)").json["notifications"]?.arrayValue ?? []
            if found.filter({ ($0["attempts"]?.intValue ?? 0) > 0 }).count >= count { return found }
            usleep(50_000)
        }
        return found
    }

    /// The one mail with this subject: two senders may deliver mails queued close together in either order.
    static func mail(_ mails: [ReceivedMail], subject: String) throws -> ReceivedMail {
        let found = mails.filter { $0.header("Subject") == [subject] }
        try #require(found.count == 1, "\(found.count) mails with the subject '\(subject)'")
        return found[0]
    }

    @Test func anEnrolledTesterGetsAMailThatSaysWhatToTryAndSwitchesOffInOnePost() throws {
        try SMTPSink.run { sink in
            let server = try InProcessServer(settings: Self.settings(port: sink.port))
            let testerID = try Self.enrollTester(on: server)
            let mails = try Self.waitForMails(sink, count: 1)
            try #require(mails.count == 1)
            let mail = mails[0]
            #expect(mail.rcptTos == ["aiko@example.org"])
            #expect(mail.mailFrom == "vouch@example.org")
            #expect(mail.defects.isEmpty)
            #expect(mail.bareLineFeeds == 0 && mail.longestLine <= 998)
            #expect(mail.header("Subject") == ["Please try a fix and tell the team whether it works for you"])
            // The subject never names the fix: its title may name an assistive technology.
            #expect(!(mail.header("Subject").first ?? "").contains("Label"))
            #expect(mail.header("Content-Language") == ["en"])
            #expect(mail.header("Auto-Submitted") == ["auto-generated"])
            let messageID = try #require(mail.header("Message-ID").first)
            #expect(messageID.hasPrefix("<ntf_") && messageID.hasSuffix("@example.org>"))
            #expect(mail.contentType == "multipart/alternative")
            try #require(mail.parts.count == 2)
            #expect(mail.parts[0].contentType == "text/plain" && mail.parts[1].contentType == "text/html")
            // As the parser decodes it, with the CRLF the message carries.
            let text = mail.parts[0].content.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(text.contains("Fix: Label the channel logos"))
            #expect(text.contains("Where in the app: TV channel selector"))
            let link = "\(Self.consoleURL)/console/testing/tv-labels"
            #expect(text.contains("\n\(link)\n"), "each link on a line of its own")
            #expect(mail.parts[1].content.contains("<html lang=\"en\">"))
            #expect(mail.parts[1].content.contains("<a href=\"\(link)\">"))
            #expect(!mail.parts[1].content.contains("<img"), "no tracking pixel")
            // The link works: the fix's page, behind a tester's sign-in.
            let page = try server.call("GET", "/console/testing/tv-labels", token: .some(nil))
            #expect(page.status == 303 && page.headers["location"]?.hasPrefix("/console/sign-in") == true)

            // RFC 8058: the mail program POSTs List-Unsubscribe=One-Click to the List-Unsubscribe address.
            #expect(mail.header("List-Unsubscribe-Post") == ["List-Unsubscribe=One-Click"])
            let unsubscribe = try #require(mail.header("List-Unsubscribe").first)
            #expect(unsubscribe.hasPrefix("<\(Self.consoleURL)/console/unsubscribe/") && unsubscribe.hasSuffix(">"))
            let path = String(unsubscribe.dropFirst(1 + Self.consoleURL.count).dropLast())
            #expect(text.contains("\n\(Self.consoleURL)\(path)\n"))
            // Opening the address only asks: a scanner that fetches it switches nothing off.
            let asked = try server.call("GET", path, token: .some(nil))
            #expect(asked.status == 200 && asked.text.contains("Stop these emails"))
            #expect(try server.store.optOuts(of: testerID).isEmpty)
            let forged = try server.call("POST", String(path.dropLast(2)) + "zz", token: .some(nil), json: "List-Unsubscribe=One-Click",
                                         contentType: "application/x-www-form-urlencoded")
            #expect(forged.status == 404)
            let posted = try server.call("POST", path, token: .some(nil), json: "List-Unsubscribe=One-Click", contentType: "application/x-www-form-urlencoded")
            #expect(posted.status == 200, "\(posted.text)")
            #expect(try server.store.optOuts(of: testerID) == [.testerEnrolled])
            // RFC 8058 allows the same POST as multipart/form-data; sent again, it changes nothing more.
            let multipart = "--b\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--b--\r\n"
            let again = try server.call("POST", path, token: .some(nil), json: multipart, contentType: "multipart/form-data; boundary=b")
            #expect(again.status == 200, "\(again.text)")

            // Switched off: the next enrollment queues no mail of that kind.
            try server.call("POST", "/v1/fixes", json: #"{"key":"tv-labels-2","title":"T","ui_area":"Guide","platforms":["ios"]}"#)
            try server.call("POST", "/v1/fixes/tv-labels-2/start")
            try server.call("POST", "/v1/fixes/tv-labels-2/enrollments", json: #"{"testers":["\#(testerID)"]}"#)
            // The console shows the outbox to those who manage testers, and says mail is on; never an address.
            let console = try server.signedInBrowser().get("/console/notifications")
            #expect(console.status == 200)
            #expect(console.html.contains("Mail is on: notifications go through smtp://127.0.0.1:\(sink.port) from vouch@example.org."))
            #expect(console.html.contains("Enrolled in a fix, about fix tv-labels") && console.html.contains(">Sent<"))
            #expect(!console.html.contains("aiko@"))
            let listed = try server.call("GET", "/v1/notifications").json["notifications"]?.arrayValue ?? []
            #expect(listed.count == 1)
            #expect(listed.first?["status"]?.stringValue == "sent" && listed.first?["recipient"]?.stringValue == testerID)
            #expect(try !server.call("GET", "/v1/notifications").text.contains("aiko@"), "the outbox never shows an address")
        }
    }

    @Test func aMailRefusedOnceIsSentAgainWithTheSameMessageID() throws {
        try SMTPSink.run(refuseFirst: "rcpt:451") { sink in
            let server = try InProcessServer(settings: Self.settings(port: sink.port))
            _ = try Self.enrollTester(on: server)
            let sent = try Self.waitForStatus(server, "sent", count: 1)
            try #require(sent.count == 1)
            #expect(sent[0]["attempts"]?.intValue == 2)
            let mails = try sink.received()
            #expect(mails.count == 1)
            #expect(mails.first?.header("Message-ID").first == "<\(sent[0]["id"]?.stringValue ?? "")@example.org>")
        }
    }

    @Test func aWithdrawalCancelsWhatIsQueuedAndSendsOneLastMailInHerLanguage() throws {
        // A relay that refuses for now: the enrollment's mail waits in the outbox.
        try SMTPSink.run(refuseFirst: "rcpt:451") { sink in
            var settings = Self.settings(port: sink.port)
            settings.mail.retryDelays = [3_600]
            let server = try InProcessServer(settings: settings)
            let testerID = try Self.enrollTester(on: server)
            let pending = try Self.waitForStatus(server, "pending", count: 1)
            #expect(pending.first?["attempts"]?.intValue == 1)
            let withdrawn = try server.call("POST", "/v1/testers/\(testerID)/withdraw", json: #"{"purge_feedback":false}"#)
            #expect(withdrawn.status == 200, "\(withdrawn.text)")
            let mails = try Self.waitForMails(sink, count: 1)
            try #require(mails.count == 1)
            #expect(mails[0].header("Subject") == ["You have stopped testing: your data is erased"])
            #expect(mails[0].rcptTos == ["aiko@example.org"])
            #expect(mails[0].header("List-Unsubscribe").isEmpty, "the last mail has nothing to switch off")
            let all = try server.call("GET", "/v1/notifications").json["notifications"]?.arrayValue ?? []
            #expect(all.map { $0["kind"]?.stringValue } == ["withdrawal_done"], "the enrollment's mail was cancelled with her")
            #expect(all.allSatisfy { $0["recipient"]?.stringValue != testerID })
            // Sent and recorded: the last copy of her address then goes from the database's files too (the purge
            // follows the record's commit, which the list may show first).
            #expect(try Self.waitForStatus(server, "sent", count: 1).count == 1)
            let deadline = Date().addingTimeInterval(5)
            var found = true
            while found, Date() < deadline {
                var files = Data()
                for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: server.directory + "/vouch.sqlite3" + suffix) {
                    files.append(try Data(contentsOf: URL(fileURLWithPath: server.directory + "/vouch.sqlite3" + suffix)))
                }
                found = files.range(of: Data("aiko@example.org".utf8)) != nil
                if found { usleep(20_000) }
            }
            #expect(!found, "her address is still in the database's files")
            // Nothing more comes.
            usleep(500_000)
            #expect(try sink.received().count == 1)
        }
    }

    @Test func aTesterWhoChoseJapaneseGetsHerMailInJapanese() throws {
        try SMTPSink.run { sink in
            let server = try InProcessServer(settings: Self.settings(port: sink.port))
            let testerID = try Self.enrollTester(on: server)
            _ = try Self.waitForMails(sink, count: 1)
            // Her language as she chose it when she joined (consent.language).
            _ = try server.store.updateTester(testerID, by: .daemon) { tester in
                var next = tester
                next.consent.language = "ja"
                return next
            }
            try server.call("POST", "/v1/fixes", json: #"{"key":"guide-labels","title":"T","ui_area":"Guide","platforms":["ios"]}"#)
            try server.call("POST", "/v1/fixes/guide-labels/start")
            try server.call("POST", "/v1/fixes/guide-labels/enrollments", json: #"{"testers":["\#(testerID)"]}"#)
            let mails = try Self.waitForMails(sink, count: 2)
            try #require(mails.count == 2)
            let japanese = try Self.mail(mails, subject: "修正を試して、使えるかどうかをお知らせください")
            #expect(japanese.header("Content-Language") == ["ja"])
            #expect(japanese.parts.last?.content.contains("<html lang=\"ja\">") == true)
            #expect(japanese.parts.first?.content.contains("修正： T") == true)
        }
    }

    /// A new revision is told to the testers enrolled in it, the release to those who gave feedback on it; each mail
    /// of a kind of its own, in her language, with its own unsubscribe.
    @Test func aNewRevisionAndTheReleaseAreToldToTheTesters() throws {
        try SMTPSink.run { sink in
            let server = try InProcessServer(settings: Self.settings(port: sink.port))
            let testerID = try Self.enrollTester(on: server)
            let revised = try server.call("POST", "/v1/fixes/tv-labels/revise", json: #"{"note":"The logos say their channel now"}"#)
            #expect(revised.status == 200, "\(revised.text)")
            let afterRevision = try Self.waitForMails(sink, count: 2)
            try #require(afterRevision.count == 2)
            let revision = try Self.mail(afterRevision, subject: "A fix you test has changed: please try it again")
            let revisionText = revision.parts[0].content.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(revisionText.contains("Revision: 2\n") && revisionText.contains("\n\(Self.consoleURL)/console/testing/tv-labels\n"))
            #expect(revision.header("List-Unsubscribe").first?.contains(".new_revision.") == true)

            let feedback = try server.call("POST", "/v1/fixes/tv-labels/feedback", json: FeedbackRoutesTests.passing(testerID))
            #expect(feedback.status == 201, "\(feedback.text)")
            let manager = try server.token(role: "release_manager", name: "rita")
            #expect(try server.call("POST", "/v1/fixes/tv-labels/approvals", token: manager, json: #"{"decision":"approve"}"#).status == 201)
            let released = try Self.waitForMails(sink, count: 3)
            try #require(released.count == 3)
            let thanks = try Self.mail(released, subject: "A fix you tested is released: thank you")
            #expect(thanks.rcptTos == ["aiko@example.org"])
            #expect(thanks.parts[0].content.contains("Label the channel logos"))
            let kinds = try server.call("GET", "/v1/notifications").json["notifications"]?.arrayValue?.compactMap { $0["kind"]?.stringValue }.sorted()
            #expect(kinds == ["fix_released", "new_revision", "tester_enrolled"])
        }
    }

    /// A failed promotion is told to the maintainers who gave an address with their token, and to no tester; a
    /// maintainer switches it off in one POST like a tester.
    @Test func aFailedPromotionIsToldToTheMaintainers() throws {
        try SMTPSink.run { sink in
            let receiver = try WebhookReceiver { _ in .init(status: 410) }
            let server = try InProcessServer(settings: Self.settings(port: sink.port))
            let maintainer = try server.call("POST", "/v1/tokens", json: #"{"name":"mia","role":"maintainer","email":"mia@example.org"}"#)
            #expect(maintainer.status == 201 && maintainer.json["email"]?.stringValue == "mia@example.org", "\(maintainer.text)")
            let testerToken = try server.call("POST", "/v1/tokens", json: #"{"name":"ana","role":"tester","tester":"t_nobody","email":"ana@example.org"}"#)
            #expect(testerToken.status == 422 && testerToken.errorFields.contains("email"))
            try server.call("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","required":true,"events":["fix.promoted"]}"#)
            let testerID = try Self.enrollTester(on: server)
            try server.call("POST", "/v1/fixes/tv-labels/feedback", json: FeedbackRoutesTests.passing(testerID))
            let manager = try server.token(role: "release_manager", name: "rita")
            try server.call("POST", "/v1/fixes/tv-labels/approvals", token: manager, json: #"{"decision":"approve"}"#)
            let mails = try Self.waitForMails(sink, count: 2)
            try #require(mails.count == 2)
            let failed = try Self.mail(mails, subject: "A fix's promotion failed: please look at it")
            #expect(failed.rcptTos == ["mia@example.org"])
            let text = failed.parts[0].content.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(text.contains("\n\(Self.consoleURL)/console/fixes/tv-labels\n"))
            let unsubscribe = try #require(failed.header("List-Unsubscribe").first)
            let path = String(unsubscribe.dropFirst(1 + Self.consoleURL.count).dropLast())
            let posted = try server.call("POST", path, token: .some(nil), json: "List-Unsubscribe=One-Click", contentType: "application/x-www-form-urlencoded")
            #expect(posted.status == 200 && posted.text.contains("failed promotions"), "\(posted.text)")
            #expect(try server.store.optOuts(of: "mia") == [.promotionFailed])
        }
    }

    /// Evidence that meets every criterion but the approvals is told to the release managers, once per revision
    /// however often it is looked at; a blocking report to the maintainers, without the tester's name or technology.
    @Test func aFixReadyForADecisionAndABlockingReportAreToldToTheStaff() throws {
        try SMTPSink.run { sink in
            let server = try InProcessServer(settings: Self.settings(port: sink.port))
            try server.call("POST", "/v1/tokens", json: #"{"name":"mia","role":"maintainer","email":"mia@example.org"}"#)
            try server.call("POST", "/v1/tokens", json: #"{"name":"rita","role":"release_manager","email":"rita@example.org"}"#)
            let testerID = try Self.enrollTester(on: server)
            for _ in 0..<2 {
                let passing = try server.call("POST", "/v1/fixes/tv-labels/feedback", json: FeedbackRoutesTests.passing(testerID))
                #expect(passing.status == 201)
            }
            let ready = try Self.waitForMails(sink, count: 2)
            try #require(ready.count == 2)
            let decision = try Self.mail(ready, subject: "A fix is ready for your decision")
            #expect(decision.rcptTos == ["rita@example.org"])
            #expect(decision.parts[0].content.replacingOccurrences(of: "\r\n", with: "\n").contains("\n\(Self.consoleURL)/console/fixes/tv-labels\n"))

            let blocking = try server.call("POST", "/v1/fixes/tv-labels/feedback", json: #"""
                {"tester":"\#(testerID)","verdict":"failed","task_outcome":"not_completed","severity":"critical","platform":"ios","os_version":"18.2","app_build":"1","assistive_tech":"voiceover"}
                """#)
            #expect(blocking.status == 201, "\(blocking.text)")
            let mails = try Self.waitForMails(sink, count: 3)
            try #require(mails.count == 3)
            let report = try Self.mail(mails, subject: "A tester reported a blocking problem: please look at the fix")
            #expect(report.rcptTos == ["mia@example.org"], "to the maintainer only, and once")
            let text = report.parts[0].content
            #expect(!text.contains("Aiko") && !text.contains("VoiceOver") && !text.contains(testerID))
            usleep(300_000)
            #expect(try sink.received().count == 3, "the second passing report did not ask the release manager again")
        }
    }

    /// She who joins through an invitation is told at the address she gave, in the language she chose, what she was
    /// enrolled in; the address is her `email`, not her contact.
    @Test func sheWhoJoinsThroughAnInvitationIsToldWhatSheWasEnrolledIn() throws {
        try SMTPSink.run { sink in
            var settings = Self.settings(port: sink.port)
            settings.programmeOperator = ProgrammeOperator(name: "Example Media Ltd", contact: "privacy@example.com")
            let server = try InProcessServer(settings: settings)
            try server.call("POST", "/v1/fixes", json: #"{"key":"tv-labels","title":"Label the channel logos","ui_area":"TV channel selector","platforms":["ios"]}"#)
            try server.call("POST", "/v1/fixes/tv-labels/start")
            let created = try server.call("POST", "/v1/invitations", json: #"{"fixes":["tv-labels"],"language":"ja"}"#)
            let secret = String(created.json["url"]?.stringValue?.split(separator: "/").last ?? "")
            let service = InvitationService(store: server.store, programmeOperator: settings.programmeOperator,
                                            notifications: NotificationPlanner(enabled: true, defaultLanguage: "en"), clock: { Date() })
            let answers = InvitationService.Answers(name: "Aiko", email: "aiko@example.jp", assistiveTech: [.init(technology: .voiceover, platform: .ios)],
                                                    targetingKeys: ["her-code"], language: "ja", consentVersion: "2026-12")
            let joined = try service.accept(secret: secret, answers)
            #expect(joined.tester.email == "aiko@example.jp" && joined.tester.contact == nil)
            let mails = try Self.waitForMails(sink, count: 1)
            try #require(mails.count == 1)
            #expect(mails[0].rcptTos == ["aiko@example.jp"])
            #expect(mails[0].header("Subject") == ["修正を試して、使えるかどうかをお知らせください"])
            #expect(mails[0].header("Content-Language") == ["ja"])
        }
    }

    /// `vouchd check-config` connects to the relay as a mail would, logging in with the file's credentials, and says so;
    /// a relay that is not there fails the check.
    @Test func checkConfigConnectsToTheRelayAndSaysSo() throws {
        let off = try VouchdRun(["check-config"])
        #expect(off.status == 0 && off.output.contains("\nNotifications by email: off (notifications.smtp_url is empty)\n"), "\(off.output)")
        try SMTPSink.run(login: "vouch:s3cret") { sink in
            let directory = try TemporaryDirectory("vouch-mail-check")
            let credentials = directory.file("credentials")
            try "vouch\ns3cret\n".write(toFile: credentials, atomically: true, encoding: .utf8)
            var environment = ["VOUCHD_NOTIFICATIONS_SMTP_URL": "smtp://127.0.0.1:\(sink.port)", "VOUCHD_NOTIFICATIONS_FROM": "vouch@example.org",
                               "VOUCHD_NOTIFICATIONS_CREDENTIALS_FILE": credentials, "VOUCHD_CONSOLE_PUBLIC_URL": Self.consoleURL]
            let run = try VouchdRun(["check-config"], environment: environment)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("\nNotifications by email: relay smtp://127.0.0.1:\(sink.port) answered (plain text on loopback, logged in); "
                                        + "sender vouch@example.org\n"), "\(run.output)")
            #expect(!run.output.contains("s3cret"))
            #expect(try sink.received().isEmpty, "the check sends no mail")
            try "vouch\nwrong\n".write(toFile: credentials, atomically: true, encoding: .utf8)
            let refused = try VouchdRun(["check-config"], environment: environment)
            #expect(refused.status == 1 && refused.errors.contains("authentication"), "\(refused.errors)")
            #expect(!refused.errors.contains("wrong"))
            environment["VOUCHD_CONSOLE_PUBLIC_URL"] = "http://vouch.example.org"
            let plain = try VouchdRun(["check-config"], environment: environment)
            #expect(plain.status == 78 && plain.errors.contains("console.public_url"), "\(plain.errors)")
        }
    }

    @Test func anAddressThatIsNotOneIsRefusedByName() throws {
        let server = try InProcessServer()
        let console = try server.signedInBrowser().get("/console/notifications")
        #expect(console.html.contains("Mail is off: vouchd sends no notification and queues none"))
        let answer = try server.call("POST", "/v1/testers", json: #"""
            {"name":"Aiko","email":"aiko at example","assistive_tech":["voiceover:ios"],"targeting_keys":["user-1"],"consent":"2026-11"}
            """#)
        #expect(answer.status == 422)
        #expect(answer.errorFields == ["email"])
        #expect(!answer.text.contains("aiko at example"))
        // The console's form for a new tester takes the address, names it when it is not one, and shows it.
        let browser = try server.signedInBrowser()
        let fields = ConsoleMaintainerTesterTests.testerFields + [("consent_given", "yes")]
        let refused = try browser.submit("/console/testers/new", fields + [("email", "aiko at example")])
        #expect(refused.status == 422 && refused.html.contains("href=\"#field-email\""), "\(refused.html)")
        let added = try browser.submit("/console/testers/new", fields + [("email", "aiko@example.org")])
        #expect(added.status == 303, "\(added.html)")
        let shown = try browser.get(try #require(added.location))
        #expect(shown.html.contains("Email address") && shown.html.contains("aiko@example.org"))
        // And the form for a new token takes a staff member's address.
        let badToken = try browser.submit("/console/tokens/new", [("name", "mia"), ("role", "maintainer"), ("email", "mia at example")])
        #expect(badToken.status == 422 && badToken.html.contains("href=\"#field-email\""), "\(badToken.html)")
        let token = try browser.follow(try browser.submit("/console/tokens/new", [("name", "mia"), ("role", "maintainer"), ("email", "mia@example.org")]))
        #expect(token.status == 200, "\(token.status)")
        #expect(token.html.contains("Token created"))
        let tokens = try server.call("GET", "/v1/tokens").json["tokens"]?.arrayValue ?? []
        #expect(tokens.contains { $0["name"]?.stringValue == "mia" && $0["email"]?.stringValue == "mia@example.org" })
    }
}
