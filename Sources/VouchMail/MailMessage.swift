import Foundation

/// One notification as an RFC 5322 message: a multipart/alternative with a plain-text part first and a simple HTML
/// part second, both UTF-8, ready to hand to SMTP as it is.
///
/// Every header value is checked when the message is made, so the bytes cannot carry a header or an SMTP command the
/// caller did not write: a line break or control character anywhere, or an address that is not plain `local@domain`,
/// is refused with the field's name. The text is the caller's; the message adds what mail for people needs
/// (docs/notifications.md): `Auto-Submitted`, `Content-Language`, `<html lang>`, and RFC 8058's one-click
/// unsubscribe when a URL is given.
public struct MailMessage: Sendable {
    public let from: MailAddress
    public let to: MailAddress
    public let subject: String
    /// A BCP 47 language tag (`ja`, `en`, `en-GB`): `Content-Language` and the HTML part's `lang`.
    public let language: String
    /// The plain-text part, read first by a screen reader and by every mail program.
    public let text: String
    /// The inside of the HTML part's `<body>`, already HTML; the message wraps it in a document with `lang` and the
    /// subject as its title.
    public let htmlBody: String
    /// `local@domain`, without angle brackets: the same for every attempt at one notification, so a receiver that got
    /// it twice can tell.
    public let messageID: String
    public let date: Date
    /// An `https://` URL that switches this kind of mail off in one POST (RFC 8058).
    public let unsubscribeURL: String?

    public static let maxSubjectLength = 200
    public static let maxUnsubscribeURLLength = 900

    /// - Parameter messageID: with or without its angle brackets.
    public init(from: MailAddress, to: MailAddress, subject: String, language: String, text: String, htmlBody: String,
                messageID: String, date: Date, unsubscribeURL: String? = nil) throws(MailError) {
        self.from = from
        self.to = to
        self.subject = try MailMessage.checkSubject(subject)
        self.language = try MailMessage.checkLanguage(language)
        self.text = text
        self.htmlBody = htmlBody
        self.messageID = try MailMessage.checkMessageID(messageID)
        self.date = date
        self.unsubscribeURL = try unsubscribeURL.map { url throws(MailError) in try MailMessage.checkUnsubscribeURL(url) }
    }

    /// Between the parts. Neither quoted-printable nor base64 can write `=_`, so no body line can look like it.
    static let boundary = "=_vouch_alternative_0"

    /// The whole message, CRLF line endings, 7-bit, no line over 78 characters but for a very long address or
    /// unsubscribe URL (never over RFC 5322's 998).
    public var bytes: [UInt8] {
        var head = "Date: \(MailDate.format(date))\r\n"
        head += HeaderWriter.address("From", from)
        head += HeaderWriter.address("To", to)
        head += HeaderWriter.unstructured("Subject", subject)
        head += HeaderWriter.field("Message-ID", tokens: ["<\(messageID)>"])
        head += "MIME-Version: 1.0\r\n"
        head += "Content-Language: \(language)\r\n"
        // RFC 3834: automatic mail, so vacation responders stay quiet.
        head += "Auto-Submitted: auto-generated\r\n"
        if let unsubscribeURL {
            head += HeaderWriter.field("List-Unsubscribe", tokens: ["<\(unsubscribeURL)>"])
            head += "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"
        }
        head += "Content-Type: multipart/alternative; boundary=\"\(MailMessage.boundary)\"\r\n\r\n"
        let body = part(type: "text/plain", text) + part(type: "text/html", htmlDocument) + "--\(MailMessage.boundary)--\r\n"
        return Array((head + body).utf8)
    }

    private func part(type: String, _ content: String) -> String {
        let (encoding, encoded) = TransferEncoding.encode(TransferEncoding.canonicalText(content))
        return "--\(MailMessage.boundary)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: \(encoding.rawValue)\r\n\r\n"
            + encoded + "\r\n"
    }

    /// The HTML part: a whole document whose `lang` tells a screen reader which voice to use.
    var htmlDocument: String {
        """
        <!DOCTYPE html>
        <html lang="\(language)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width">
        <title>\(MailMessage.escapeHTML(subject))</title>
        </head>
        <body>
        \(htmlBody)
        </body>
        </html>
        """
    }

    static func escapeHTML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
