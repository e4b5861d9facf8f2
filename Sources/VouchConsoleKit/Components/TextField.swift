/// A one-line text input. Optional fields say "(optional)" in their label; no field is marked `required`, since the
/// server explains what is missing (GOV.UK's validation pattern).
public struct TextField: Sendable {
    public var name: String
    public var label: String
    public var heading: FieldHeading
    public var hint: String?
    public var value: String
    public var issue: FieldIssue?
    /// `text`, `password`, `url`, `email`.
    public var type: String
    /// The input purpose (WCAG 1.3.5), such as `name`, `email`, `off`.
    public var autocomplete: String?
    /// A width class for the expected length: `input--short`, `input--medium`, or nil for the full width.
    public var width: String?
    public var spellcheck: Bool

    public init(name: String, label: String, heading: FieldHeading = .label, hint: String? = nil, value: String = "",
                issue: FieldIssue? = nil, type: String = "text", autocomplete: String? = nil, width: String? = nil, spellcheck: Bool = true) {
        self.name = name
        self.label = label
        self.heading = heading
        self.hint = hint
        self.value = value
        self.issue = issue
        self.type = type
        self.autocomplete = autocomplete
        self.width = width
        self.spellcheck = spellcheck
    }

    public func render(_ messages: Messages = .english) -> HTML {
        let group = FieldGroup(field: name, hint: hint, issue: issue, messages: messages)
        let classes = ["input", width, issue == nil ? nil : "input--error"].compactMap { $0 }.joined(separator: " ")
        let autocompleteAttribute: HTML = autocomplete.map { " autocomplete=\"\($0)\"" } ?? .empty
        let spellcheckAttribute: HTML = spellcheck ? .empty : " spellcheck=\"false\""
        let control: HTML = """
        <input class="\(classes)" id="\(FieldID.control(name))" name="\(name)" type="\(type)" value="\(value)"\(group.describedByAttribute)\(autocompleteAttribute)\(spellcheckAttribute)>
        """
        return group.single(label: label, heading: heading, control: control)
    }
}
