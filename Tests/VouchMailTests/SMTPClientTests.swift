import Foundation
import Testing
import VouchClient
import VouchMail
import VouchTestSupport

/// SMTPClient against a real SMTP server (aiosmtpd), each message read back by Python's email parser.
struct SMTPClientTests {
    let sender = try! MailAddress("notifications@vouch.example.org", displayName: "Vouch 通知", for: .from)
    let recipient = try! MailAddress("aiko@example.jp", displayName: "山田 愛子", for: .to)

    func message() throws -> MailMessage {
        try MailMessage(
            from: sender, to: recipient, subject: "修正「読み上げ順序」を試してください", language: "ja",
            text: "修正: 読み上げ順序\n試す場所:\nhttps://vouch.example.org/fixes/42\n",
            htmlBody: "<p>修正: 読み上げ順序</p>", messageID: "notification-42@vouch.example.org",
            date: Date(timeIntervalSince1970: 1_796_410_094), unsubscribeURL: "https://vouch.example.org/unsubscribe/k7Qp2")
    }

    func client(_ sink: SMTPSink, query: String = "", credentials: SMTPClient.Credentials? = nil) throws -> SMTPClient {
        SMTPClient(server: try SMTPURL("smtp://127.0.0.1:\(sink.port)\(query)"), credentials: credentials, timeoutSeconds: 10)
    }

    /// The error, which must say nothing of the addresses or the credentials.
    func refusal(_ send: () throws -> Void) throws -> SMTPError {
        let error = try #require(throws: SMTPError.self, performing: send)
        for secret in ["aiko", "notifications@", "vouch-user", "s3cret"] { #expect(!error.description.contains(secret)) }
        return error
    }

    @Test func aMessageArrivesWholeWithItsEnvelope() throws {
        try SMTPSink.run(login: "vouch-user:s3cret") { sink in
            let message = try message()
            try client(sink, credentials: .init(username: "vouch-user", password: "s3cret")).send(message.bytes, from: sender, to: recipient)
            let received = try sink.received()
            try #require(received.count == 1)
            let mail = received[0]
            #expect(mail.mailFrom == "notifications@vouch.example.org")
            #expect(mail.rcptTos == ["aiko@example.jp"])
            #expect(mail.login == "vouch-user")
            #expect(mail.raw == message.bytes)
            #expect(mail.defects == [])
            #expect(mail.longestLine <= 78 && mail.bareLineFeeds == 0)
            #expect(mail.header("Subject") == ["修正「読み上げ順序」を試してください"])
            #expect(mail.header("To") == ["山田 愛子 <aiko@example.jp>"])
            #expect(mail.header("From") == ["Vouch 通知 <notifications@vouch.example.org>"])
            #expect(mail.header("Message-ID") == ["<notification-42@vouch.example.org>"])
            #expect(mail.header("List-Unsubscribe-Post") == ["List-Unsubscribe=One-Click"])
            #expect(mail.contentType == "multipart/alternative")
            try #require(mail.parts.count == 2)
            #expect(mail.parts.map(\.contentType) == ["text/plain", "text/html"])
            #expect(mail.parts.allSatisfy { $0.charset == "utf-8" })
            #expect(mail.parts[0].content == "修正: 読み上げ順序\r\n試す場所:\r\nhttps://vouch.example.org/fixes/42\r\n")
            #expect(mail.parts[1].content.contains("<html lang=\"ja\">"))
        }
    }

    @Test func aRecipientRefusedWith4xxIsTransientAndTheNextAttemptArrives() throws {
        try SMTPSink.run(refuseFirst: "rcpt:451") { sink in
            let client = try client(sink)
            let bytes = try message().bytes
            let error = try refusal { try client.send(bytes, from: sender, to: recipient) }
            #expect(error.step == .recipient && error.replyCode == 451 && error.isTransient)
            #expect(try sink.received().isEmpty)
            try client.send(bytes, from: sender, to: recipient)
            #expect(try sink.received().map(\.rcptTos) == [["aiko@example.jp"]])
        }
    }

    @Test func aRecipientRefusedWith5xxIsPermanent() throws {
        try SMTPSink.run(refuseFirst: "rcpt:550") { sink in
            let error = try refusal { try client(sink).send(message().bytes, from: sender, to: recipient) }
            #expect(error.step == .recipient && error.replyCode == 550 && !error.isTransient)
        }
    }

    @Test func aMessageRefusedWith4xxAtItsEndIsTransient() throws {
        try SMTPSink.run(refuseFirst: "data:452") { sink in
            let error = try refusal { try client(sink).send(message().bytes, from: sender, to: recipient) }
            #expect(error.step == .data && error.replyCode == 452 && error.isTransient)
            #expect(try sink.received().isEmpty)
        }
    }

    @Test func aWrongPasswordIsAPermanentAuthenticationFailure() throws {
        try SMTPSink.run(login: "vouch-user:right") { sink in
            let credentials = SMTPClient.Credentials(username: "vouch-user", password: "s3cret")
            let error = try refusal { try client(sink, credentials: credentials).send(message().bytes, from: sender, to: recipient) }
            #expect(error.step == .authentication && error.replyCode == 535 && !error.isTransient)
            #expect(try sink.received().isEmpty)
        }
    }

    @Test func aRefusedConnectionIsTransient() throws {
        // The port of a sink that has stopped: nothing listens there any more.
        let port = try SMTPSink.run { $0.port }
        let client = SMTPClient(server: try SMTPURL("smtp://127.0.0.1:\(port)"), timeoutSeconds: 10)
        let error = try refusal { try client.send(message().bytes, from: sender, to: recipient) }
        #expect(error.step == .connection && error.replyCode == nil && error.isTransient)
    }

    @Test func requiredSTARTTLSThatTheServerDoesNotOfferSendsNothing() throws {
        try SMTPSink.run { sink in
            let error = try refusal { try client(sink, query: "?starttls=required").send(message().bytes, from: sender, to: recipient) }
            #expect(error.step == .tls && !error.isTransient)
            #expect(try sink.received().isEmpty)
        }
    }
}
