/// An email address (`local@domain`) with an optional display name, checked so that it can go into a header and into
/// SMTP's `MAIL FROM` or `RCPT TO` as it is.
///
/// Accepted: ASCII only (internationalised addresses need SMTPUTF8, which Vouch does not ask for), a local part of
/// RFC 5322 `atext` characters and single dots, and a domain of letters, digits and hyphens in dot-separated labels.
/// Quoted local parts and address literals are refused: no relay needs them for a notification.
public struct MailAddress: Sendable, Equatable {
    /// The addr-spec, `local@domain`.
    public let address: String
    /// Any Unicode text without line breaks or control characters; nil when there is none.
    public let displayName: String?

    public static let maxDisplayNameLength = 200

    /// - Parameter field: the header the address is for, which a refusal names.
    public init(_ address: String, displayName: String? = nil, for field: MailError.Field) throws(MailError) {
        try MailAddress.check(address, field: field)
        if let displayName {
            if displayName.hasLineBreak || displayName.hasControlCharacter {
                throw MailError(field, "the display name must not contain a line break or other control character")
            }
            guard displayName.count <= MailAddress.maxDisplayNameLength else {
                throw MailError(field, "the display name must be at most \(MailAddress.maxDisplayNameLength) characters")
            }
        }
        self.address = address
        self.displayName = displayName?.isEmpty == false ? displayName : nil
    }

    static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8)

    private static func check(_ address: String, field: MailError.Field) throws(MailError) {
        if address.hasLineBreak { throw MailError(field, "the address must not contain a line break") }
        guard address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw MailError(field, "the address must be printable ASCII without spaces (internationalised addresses are not supported)")
        }
        guard address.utf8.count <= 254 else { throw MailError(field, "the address must be at most 254 characters") }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw MailError(field, "the address must have exactly one @, as in name@example.org") }
        let local = parts[0], domain = parts[1]
        guard (1...64).contains(local.utf8.count), isDotAtom(local, allowed: atext) else {
            throw MailError(field, "the part before @ must be 1 to 64 letters, digits or !#$%&'*+-/=?^_`{|}~, with single dots between them")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let validLabels = labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { $0 == UInt8(ascii: "-") || isLetterOrDigit($0) }
        }
        guard validLabels else {
            throw MailError(field, "the part after @ must be a domain name: labels of letters, digits and hyphens separated by single dots")
        }
    }

    static func isDotAtom(_ text: Substring, allowed: Set<UInt8>) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { atom in
            !atom.isEmpty && atom.utf8.allSatisfy(allowed.contains)
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
