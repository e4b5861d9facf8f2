/// The checks of each header value a caller gives; each refusal names its field and says what is allowed.
extension MailMessage {
    static func checkSubject(_ subject: String) throws(MailError) -> String {
        if subject.hasLineBreak { throw MailError(.subject, "must not contain a line break") }
        if subject.hasControlCharacter { throw MailError(.subject, "must not contain control characters") }
        guard !subject.allSatisfy(\.isWhitespace) else { throw MailError(.subject, "must say what to do, not be empty") }
        guard subject.count <= maxSubjectLength else { throw MailError(.subject, "must be at most \(maxSubjectLength) characters") }
        return subject
    }

    /// A BCP 47 tag's shape: a primary language of 2 or 3 letters, then subtags of 1 to 8 letters or digits.
    static func checkLanguage(_ language: String) throws(MailError) -> String {
        if language.hasLineBreak { throw MailError(.language, "must not contain a line break") }
        let subtags = language.split(separator: "-", omittingEmptySubsequences: false)
        let primary = subtags[0]
        let wellFormed = (2...3).contains(primary.count) && primary.allSatisfy { $0.isASCII && $0.isLetter }
            && subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard wellFormed else { throw MailError(.language, "must be a language tag such as ja, en or en-GB") }
        return language
    }

    /// RFC 5322's `id-left "@" id-right`, both dot-atoms, as the caller's stable identifier of one notification.
    static func checkMessageID(_ messageID: String) throws(MailError) -> String {
        if messageID.hasLineBreak { throw MailError(.messageID, "must not contain a line break") }
        let bare = messageID.hasPrefix("<") && messageID.hasSuffix(">") ? String(messageID.dropFirst().dropLast()) : messageID
        let parts = bare.split(separator: "@", omittingEmptySubsequences: false)
        guard bare.utf8.count <= 250, parts.count == 2, parts.allSatisfy({ MailAddress.isDotAtom($0, allowed: MailAddress.atext) }) else {
            throw MailError(.messageID, "must be left@right, each side letters, digits, !#$%&'*+-/=?^_`{|}~ and single dots, at most 250 characters "
                + "(such as notification-42@vouch.example.org)")
        }
        return bare
    }

    /// RFC 8058 asks for an HTTPS URI, which a mail program POSTs `List-Unsubscribe=One-Click` to.
    static func checkUnsubscribeURL(_ url: String) throws(MailError) -> String {
        if url.hasLineBreak { throw MailError(.unsubscribeURL, "must not contain a line break") }
        guard url.lowercased().hasPrefix("https://"), url.count > "https://".count else {
            throw MailError(.unsubscribeURL, "must be an https:// URL (RFC 8058)")
        }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }) else {
            throw MailError(.unsubscribeURL, "must be printable ASCII without spaces, < or >; percent-encode anything else")
        }
        guard url.utf8.count <= maxUnsubscribeURLLength else {
            throw MailError(.unsubscribeURL, "must be at most \(maxUnsubscribeURLLength) characters")
        }
        return url
    }
}
