/// One problem with what was typed or chosen in a form field, shown in the error summary and beside the field.
public struct FieldIssue: Sendable, Equatable {
    /// The form field's name; the summary links to the control with this id.
    public var field: String
    public var message: String
    /// The service's own explanation after the message, in the language it is written in (its English prose), for a
    /// page in another language: marked with `lang` so a screen reader reads it in that language's voice.
    public var detail: String?
    public var detailLanguage: Language?

    public init(field: String, message: String, detail: String? = nil, detailLanguage: Language? = nil) {
        self.field = field
        self.message = message
        self.detail = detail
        self.detailLanguage = detailLanguage
    }

    /// The message, then the detail marked with its language where the page's differs.
    func markup(_ messages: Messages) -> HTML {
        guard let detail else { return "\(message)" }
        return "\(message) " + messages.authored(detail, language: detailLanguage?.rawValue)
    }
}
