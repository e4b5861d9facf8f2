import Foundation
import VouchConsoleKit
import VouchDomain
import VouchMail
import VouchServices

/// Writes one queued notification as a mail, in its recipient's language from the message catalogs: the plain-text
/// part first, labels before values and each link on a line of its own, then the same as simple HTML
/// (docs/notifications.md, "What a mail says"). The subject says what to do and never names the fix, whose title
/// may name an assistive technology, which is health data.
public struct NotificationComposer: Sendable {
    public let from: MailAddress
    /// `console.public_url`, an `https://` address: every link in a mail starts with it.
    public let consoleURL: String
    /// The key unsubscribe addresses are signed with (`NotificationService.unsubscribeKey`).
    let unsubscribeKey: [UInt8]

    public init(from: MailAddress, consoleURL: String, unsubscribeKey: [UInt8]) {
        self.from = from
        var url = consoleURL
        while url.hasSuffix("/") { url.removeLast() }
        self.consoleURL = url
        self.unsubscribeKey = unsubscribeKey
    }

    /// Why a notification cannot be written, ever: it is given up rather than retried.
    public struct Unwritable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The mail for `notification`; `fix` is the fix it is about, read when it is sent.
    public func message(for notification: MailNotification, fix: Fix?, at date: Date) throws -> MailMessage {
        guard let address = notification.address else { throw Unwritable(description: "the notification has no address left") }
        let messages = Messages(Language(rawValue: notification.language) ?? .en)
        var lines: [String] = []
        var html: [String] = []
        let subject: String
        switch notification.kind {
        case .testerEnrolled:
            guard let fix else { throw Unwritable(description: "the fix \(notification.fixKey ?? "") no longer exists") }
            subject = messages[.mailEnrolledSubject]
            let link = consoleURL + "/console/testing/" + fix.key.rawValue
            lines = [messages[.mailEnrolledIntro], "", "\(messages[.mailFixLabel]) \(fix.title)", "\(messages[.mailAreaLabel]) \(fix.uiArea)", "",
                     messages[.mailEnrolledLinkLabel], link, "", messages[.mailEnrolledSignIn]]
            html = [paragraph(messages[.mailEnrolledIntro]),
                    "<p>\(HTML.escape(messages[.mailFixLabel])) \(HTML.escape(fix.title))<br>\n\(HTML.escape(messages[.mailAreaLabel])) \(HTML.escape(fix.uiArea))</p>",
                    "<p>\(HTML.escape(messages[.mailEnrolledLinkLabel]))<br>\n<a href=\"\(HTML.escape(link))\">\(HTML.escape(link))</a></p>",
                    paragraph(messages[.mailEnrolledSignIn])]
        case .withdrawalDone:
            subject = messages[.mailWithdrawalSubject]
            lines = [messages[.mailWithdrawalText], "", messages[.mailWithdrawalLast]]
            html = [paragraph(messages[.mailWithdrawalText]), paragraph(messages[.mailWithdrawalLast])]
        }
        var unsubscribeURL: String?
        if notification.kind.canUnsubscribe {
            let url = consoleURL + "/console/unsubscribe/"
                + NotificationService.unsubscribeToken(recipient: notification.recipient, kind: notification.kind, key: unsubscribeKey)
            unsubscribeURL = url
            lines += ["", messages[.mailUnsubscribeLabel], url]
            html.append("<p>\(HTML.escape(messages[.mailUnsubscribeLabel]))<br>\n<a href=\"\(HTML.escape(url))\">\(HTML.escape(url))</a></p>")
        }
        lines += ["", messages[.mailAutomatic]]
        html.append(paragraph(messages[.mailAutomatic]))
        do {
            return try MailMessage(from: from, to: try MailAddress(address, for: .to), subject: subject, language: notification.language,
                                   text: lines.joined(separator: "\n") + "\n", htmlBody: html.joined(separator: "\n"),
                                   messageID: "\(notification.id)@\(from.address.split(separator: "@").last ?? "vouch.invalid")", date: date,
                                   unsubscribeURL: unsubscribeURL)
        } catch {
            throw Unwritable(description: "the mail could not be written: \(error)")
        }
    }

    private func paragraph(_ text: String) -> String { "<p>\(HTML.escape(text))</p>" }
}
