/// A multi-line text input, for what a screen reader said or a comment.
public struct TextArea: Sendable {
    public var name: String
    public var label: String
    public var heading: FieldHeading
    public var hint: String?
    public var value: String
    public var issue: FieldIssue?
    public var rows: Int

    public init(name: String, label: String, heading: FieldHeading = .label, hint: String? = nil, value: String = "",
                issue: FieldIssue? = nil, rows: Int = 5) {
        self.name = name
        self.label = label
        self.heading = heading
        self.hint = hint
        self.value = value
        self.issue = issue
        self.rows = rows
    }

    public func render(_ messages: Messages = .english) -> HTML {
        let group = FieldGroup(field: name, hint: hint, issue: issue, messages: messages)
        let classes = issue == nil ? "textarea" : "textarea textarea--error"
        let control: HTML = """
        <textarea class="\(classes)" id="\(FieldID.control(name))" name="\(name)" rows="\(rows)"\(group.describedByAttribute)>\(value)</textarea>
        """
        return group.single(label: label, heading: heading, control: control)
    }
}
