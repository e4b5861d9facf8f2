/// A choice from a list too long for radios (fifteen assistive technologies), as a `select` with a label.
///
/// The first option is an empty "Choose…" so nothing is chosen until the person chooses, as with radios; the
/// server explains what is missing.
public struct Select: Sendable {
    public var name: String
    public var label: String
    public var hint: String?
    public var options: [RadioGroup.Option]
    /// What the empty first option says.
    public var placeholder: String
    public var selected: String
    public var issue: FieldIssue?

    public init(name: String, label: String, hint: String? = nil, options: [RadioGroup.Option], placeholder: String = "Choose",
                selected: String = "", issue: FieldIssue? = nil) {
        self.name = name
        self.label = label
        self.hint = hint
        self.options = options
        self.placeholder = placeholder
        self.selected = selected
        self.issue = issue
    }

    public func render(_ messages: Messages = .english) -> HTML {
        let group = FieldGroup(field: name, hint: hint, issue: issue, messages: messages)
        let choices = options.map { option -> HTML in
            "<option value=\"\(option.value)\"\(option.value == selected ? HTML(trusted: " selected") : .empty)>\(option.label)</option>"
        }
        let control: HTML = """
        <select class="select\(issue == nil ? "" : " select--error")" id="\(FieldID.control(name))" name="\(name)"\(group.describedByAttribute)>
        <option value="">\(placeholder)</option>\(choices)
        </select>
        """
        return group.single(label: label, heading: .label, control: control)
    }
}
