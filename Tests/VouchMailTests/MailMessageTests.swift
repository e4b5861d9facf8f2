import Foundation
import Testing
@testable import VouchMail

struct MailMessageTests {
    static let date = Date(timeIntervalSince1970: 1_796_410_094) // Fri, 04 Dec 2026 18:48:14 UTC

    static func japanese(unsubscribeURL: String? = "https://vouch.example.org/unsubscribe/k7Qp2") throws -> MailMessage {
        try MailMessage(
            from: MailAddress("notifications@vouch.example.org", displayName: "Vouch 通知", for: .from),
            to: MailAddress("aiko@example.jp", displayName: "山田 愛子", for: .to),
            subject: "修正「読み上げ順序」を試してください",
            language: "ja",
            text: "修正: 読み上げ順序\n試す場所:\nhttps://vouch.example.org/fixes/42\n",
            htmlBody: "<p>修正: 読み上げ順序</p>\n<p><a href=\"https://vouch.example.org/fixes/42\">試す</a></p>",
            messageID: "notification-42@vouch.example.org", date: date, unsubscribeURL: unsubscribeURL)
    }

    static func read(_ message: MailMessage) -> (MIMEReader.Entity, [MIMEReader.Entity]) {
        let entity = MIMEReader.entity(String(decoding: message.bytes, as: UTF8.self))
        return (entity, MIMEReader.parts(of: entity))
    }

    @Test func headersAreWrittenOnceEachAndReadBack() throws {
        let (mail, _) = Self.read(try Self.japanese())
        #expect(mail.values("Date") == ["Fri, 04 Dec 2026 18:48:14 +0000"])
        #expect(mail.values("Message-ID") == ["<notification-42@vouch.example.org>"])
        #expect(mail.values("MIME-Version") == ["1.0"])
        #expect(mail.values("Content-Language") == ["ja"])
        #expect(mail.values("Auto-Submitted") == ["auto-generated"])
        #expect(mail.values("List-Unsubscribe") == ["<https://vouch.example.org/unsubscribe/k7Qp2>"])
        #expect(mail.values("List-Unsubscribe-Post") == ["List-Unsubscribe=One-Click"])
        #expect(mail.value("Content-Type")?.hasPrefix("multipart/alternative;") == true)
        for name in ["From", "To", "Subject"] { #expect(mail.values(name).count == 1, "\(name)") }
    }

    @Test func japaneseSubjectAndNamesAreEncodedWordsThatDecode() throws {
        let (mail, _) = Self.read(try Self.japanese())
        #expect(mail.value("Subject")?.hasPrefix("=?UTF-8?B?") == true)
        #expect(mail.decoded("Subject") == "修正「読み上げ順序」を試してください")
        #expect(mail.decoded("From") == "Vouch 通知 <notifications@vouch.example.org>")
        #expect(mail.decoded("To") == "山田 愛子 <aiko@example.jp>")
    }

    @Test func plainTextComesFirstThenHTMLWithItsLanguage() throws {
        let (_, parts) = Self.read(try Self.japanese())
        try #require(parts.count == 2)
        #expect(parts[0].value("Content-Type") == "text/plain; charset=utf-8")
        #expect(parts[1].value("Content-Type") == "text/html; charset=utf-8")
        #expect(parts[0].decodedBody == "修正: 読み上げ順序\r\n試す場所:\r\nhttps://vouch.example.org/fixes/42\r\n")
        let html = parts[1].decodedBody
        #expect(html.hasPrefix("<!DOCTYPE html>\r\n<html lang=\"ja\">"))
        #expect(html.contains("<title>修正「読み上げ順序」を試してください</title>"))
        #expect(html.contains("<p>修正: 読み上げ順序</p>"))
    }

    @Test func everyLineIsSevenBitCRLFAndAtMost78Characters() throws {
        let long = String(repeating: "とても長い件名です。", count: 12)
        let message = try MailMessage(
            from: MailAddress("a@example.org", for: .from), to: MailAddress("b@example.org", displayName: String(repeating: "名前", count: 40), for: .to),
            subject: long, language: "ja", text: String(repeating: "長い行 ", count: 200) + "\n" + String(repeating: "x", count: 300),
            htmlBody: String(repeating: "<p>本文</p>", count: 100), messageID: "n-1@example.org", date: Self.date)
        let bytes = message.bytes
        #expect(bytes.allSatisfy { $0 < 0x80 })
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(!lines.contains { $0.contains("\n") || $0.contains("\r") })
        for line in lines { #expect(line.count <= 78, "\(line)") }
        let (mail, parts) = Self.read(message)
        #expect(mail.decoded("Subject") == long)
        #expect(parts.first?.decodedBody.hasPrefix("長い行 長い行") == true)
    }

    @Test func englishMailStaysReadableQuotedPrintable() throws {
        let message = try MailMessage(
            from: MailAddress("notifications@vouch.example.org", displayName: "Vouch (staging)", for: .from),
            to: MailAddress("sam@example.org", displayName: "Sam \"Q\" Lee", for: .to),
            subject: "Try the fix \"focus order\" on the checkout page, where the screen reader skipped the total = 3 times",
            language: "en-GB", text: "Fix: focus order\nTry it:\nhttps://vouch.example.org/fixes/42", htmlBody: "<p>Fix: focus order</p>",
            messageID: "<n-2@vouch.example.org>", date: Self.date)
        let (mail, parts) = Self.read(message)
        #expect(mail.value("Subject")?.contains("=?") == false)
        #expect(mail.decoded("Subject") == message.subject)
        #expect(mail.value("From") == "\"Vouch (staging)\" <notifications@vouch.example.org>")
        #expect(mail.value("To") == "\"Sam \\\"Q\\\" Lee\" <sam@example.org>")
        #expect(mail.values("Message-ID") == ["<n-2@vouch.example.org>"])
        #expect(mail.values("List-Unsubscribe").isEmpty && mail.values("List-Unsubscribe-Post").isEmpty)
        #expect(parts.first?.value("Content-Transfer-Encoding") == "quoted-printable")
        #expect(parts.first?.body == "Fix: focus order\r\nTry it:\r\nhttps://vouch.example.org/fixes/42")
        #expect(parts.last?.decodedBody.contains("<html lang=\"en-GB\">") == true)
    }

    @Test func theSameNotificationIsTheSameBytes() throws {
        #expect(try Self.japanese().bytes == Self.japanese().bytes)
    }

    static let injections: [(MailError.Field, @Sendable () throws -> MailMessage)] = [
        (.subject, { try japanese(subject: "Hello\r\nBcc: victim@example.org") }),
        (.subject, { try japanese(subject: "Hello\nX-Evil: 1") }),
        (.subject, { try japanese(subject: "tab\u{0}nul") }),
        (.subject, { try japanese(subject: " ") }),
        (.messageID, { try japanese(messageID: "n-1@example.org>\r\nBcc: victim@example.org") }),
        (.messageID, { try japanese(messageID: "no-at-sign") }),
        (.language, { try japanese(language: "ja\r\nBcc: victim@example.org") }),
        (.language, { try japanese(language: "japanese") }),
        (.unsubscribeURL, { try japanese(unsubscribeURL: "https://example.org/u\r\nBcc: victim@example.org") }),
        (.unsubscribeURL, { try japanese(unsubscribeURL: "http://example.org/u") }),
        (.unsubscribeURL, { try japanese(unsubscribeURL: "https://example.org/u>, <mailto:x@example.org") }),
    ]

    @Test(arguments: 0..<injections.count)
    func headerInjectionIsRefusedNamingTheField(index: Int) {
        let (field, make) = Self.injections[index]
        #expect { try make() } throws: { error in
            (error as? MailError)?.field == field && !"\(error)".contains("victim")
        }
    }

    static func japanese(subject: String? = nil, language: String = "ja", messageID: String = "n-1@example.org",
                         unsubscribeURL: String? = nil) throws -> MailMessage {
        try MailMessage(from: MailAddress("a@example.org", for: .from), to: MailAddress("b@example.org", for: .to),
                        subject: subject ?? "件名", language: language, text: "", htmlBody: "", messageID: messageID, date: date,
                        unsubscribeURL: unsubscribeURL)
    }
}
