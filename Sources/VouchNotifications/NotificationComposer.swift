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
        case .testerEnrolled, .newRevision:
            let fix = try required(fix, notification)
            let revise = notification.kind == .newRevision
            subject = messages[revise ? .mailNewRevisionSubject : .mailEnrolledSubject]
            let intro = messages[revise ? .mailNewRevisionIntro : .mailEnrolledIntro]
            var facts = [(messages[.mailFixLabel], fix.title), (messages[.mailAreaLabel], fix.uiArea)]
            if revise { facts.append((messages[.mailRevisionLabel], messages.number(fix.revision))) }
            let link = consoleURL + "/console/testing/" + fix.key.rawValue
            lines = [intro, ""] + facts.map { "\($0.0) \($0.1)" } + ["", messages[.mailEnrolledLinkLabel], link, "", messages[.mailEnrolledSignIn]]
            html = [paragraph(intro), NotificationComposer.facts(facts), NotificationComposer.link(messages[.mailEnrolledLinkLabel], link),
                    paragraph(messages[.mailEnrolledSignIn])]
        case .fixReleased:
            let fix = try required(fix, notification)
            subject = messages[.mailReleasedSubject]
            let facts = [(messages[.mailFixLabel], fix.title), (messages[.mailAreaLabel], fix.uiArea)]
            lines = [messages[.mailReleasedText], ""] + facts.map { "\($0.0) \($0.1)" }
            html = [paragraph(messages[.mailReleasedText]), NotificationComposer.facts(facts)]
        case .promotionFailed, .blockingReport, .readyForDecision:
            let fix = try required(fix, notification)
            let (subjectKey, introKey): (MessageKey, MessageKey) = switch notification.kind {
            case .promotionFailed: (.mailPromotionFailedSubject, .mailPromotionFailedText)
            case .blockingReport: (.mailBlockingSubject, .mailBlockingText)
            default: (.mailDecisionSubject, .mailDecisionText)
            }
            subject = messages[subjectKey]
            let intro = messages[introKey]
            let facts = [(messages[.mailFixLabel], fix.title), (messages[.mailRevisionLabel], messages.number(fix.revision))]
            let link = consoleURL + "/console/fixes/" + fix.key.rawValue
            lines = [intro, ""] + facts.map { "\($0.0) \($0.1)" } + ["", messages[.mailFixPageLabel], link]
            html = [paragraph(intro), NotificationComposer.facts(facts),
                    NotificationComposer.link(messages[.mailFixPageLabel], link)]
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
            html.append(NotificationComposer.link(messages[.mailUnsubscribeLabel], url))
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

    /// The fix the notification is about, which a mail of its kind cannot go without.
    private func required(_ fix: Fix?, _ notification: MailNotification) throws -> Fix {
        guard let fix else { throw Unwritable(description: "the fix \(notification.fixKey ?? "") no longer exists") }
        return fix
    }

    /// Labels and values, one pair a line, the label first.
    static func facts(_ pairs: [(String, String)]) -> String {
        "<p>" + pairs.map { "\(HTML.escape($0.0)) \(HTML.escape($0.1))" }.joined(separator: "<br>\n") + "</p>"
    }

    /// A label, then the link on a line of its own, its address as its text.
    static func link(_ label: String, _ url: String) -> String {
        "<p>\(HTML.escape(label))<br>\n<a href=\"\(HTML.escape(url))\">\(HTML.escape(url))</a></p>"
    }
}
