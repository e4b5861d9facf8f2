/// Why a message could not be composed: the header field at fault and what is wrong with its value.
///
/// Never the value itself: an address is a person's contact, and an error may end up in a log.
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The header field, by the name it has in the message.
    public enum Field: String, Sendable, Equatable {
        case from = "From"
        case to = "To"
        case subject = "Subject"
        case messageID = "Message-ID"
        case language = "Content-Language"
        case unsubscribeURL = "List-Unsubscribe"
    }

    public var field: Field
    /// Worded to follow the field's name ("Subject: must not …").
    public var problem: String

    public init(_ field: Field, _ problem: String) {
        self.field = field
        self.problem = problem
    }

    public var description: String { "\(field.rawValue): \(problem)" }
}

extension StringProtocol {
    /// A raw CR or LF would end the header line and let the rest of the value be read as headers of its own.
    var hasLineBreak: Bool { utf8.contains(0x0D) || utf8.contains(0x0A) }

    /// C0 controls and DEL, which have no place in a header value (a tab included: Vouch writes none).
    var hasControlCharacter: Bool { unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
}
