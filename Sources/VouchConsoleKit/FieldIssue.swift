/// One problem with what was typed or chosen in a form field, shown in the error summary and beside the field.
public struct FieldIssue: Sendable, Equatable {
    /// The form field's name; the summary links to the control with this id.
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}
