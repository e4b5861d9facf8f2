/// A question answered by choosing any number of options.
public struct CheckboxGroup: Sendable {
    public var name: String
    public var legend: String
    public var heading: FieldHeading
    public var hint: String?
    public var options: [RadioGroup.Option]
    public var selected: Set<String>
    public var issue: FieldIssue?

    public init(name: String, legend: String, heading: FieldHeading = .label, hint: String? = nil, options: [RadioGroup.Option],
                selected: Set<String> = [], issue: FieldIssue? = nil) {
        self.name = name
        self.legend = legend
        self.heading = heading
        self.hint = hint
        self.options = options
        self.selected = selected
        self.issue = issue
    }

    public func render(_ messages: Messages = .english) -> HTML {
        let items = RadioGroup.choices(options, name: name, type: "checkbox", messages: messages) { selected.contains($0.value) }
        return FieldGroup(field: name, hint: hint, issue: issue, messages: messages).fieldset(legend: "\(legend)", heading: heading,
                                                                           controls: "<div class=\"choices choices--checkboxes\">\(items)</div>")
    }
}
