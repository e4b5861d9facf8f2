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

    public func render() -> HTML {
        let items = options.enumerated().map { index, option -> HTML in
            let id = FieldID.option(name, index)
            let checked: HTML = selected.contains(option.value) ? " checked" : .empty
            let hintID = id + "-item-hint"
            let described: HTML = option.hint == nil ? .empty : " aria-describedby=\"\(hintID)\""
            let optionHint: HTML = option.hint.map { "<div id=\"\(hintID)\" class=\"hint choice__hint\">\($0)</div>" } ?? .empty
            return """
            <div class="choice">
            <input class="choice__input" id="\(id)" name="\(name)" type="checkbox" value="\(option.value)"\(checked)\(described)>
            <label class="choice__label" for="\(id)">\(option.label)</label>
            \(optionHint)
            </div>
            """
        }
        return FieldGroup(field: name, hint: hint, issue: issue).fieldset(legend: legend, heading: heading,
                                                                           controls: "<div class=\"choices choices--checkboxes\">\(items)</div>")
    }
}
