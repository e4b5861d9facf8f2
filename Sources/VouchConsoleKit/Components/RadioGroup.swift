/// One question answered by choosing one option: a fieldset whose legend is the question, and nothing chosen until
/// the person chooses (a radio group cannot be cleared, so offer "I can't tell" where it fits rather than a default).
public struct RadioGroup: Sendable {
    public struct Option: Sendable {
        public var value: String
        public var label: String
        public var hint: String?
        /// Puts an "or" divider before this option (GOV.UK's divider before "None of these").
        public var dividerBefore: Bool

        public init(_ value: String, _ label: String, hint: String? = nil, dividerBefore: Bool = false) {
            self.value = value
            self.label = label
            self.hint = hint
            self.dividerBefore = dividerBefore
        }
    }

    public var name: String
    public var legend: String
    /// The legend as markup, when part of it is marked with a language of its own (a fix's UI area in the team's
    /// language, within a question in the page's): a screen reader switches voice there. `legend` when nil.
    public var legendMarkup: HTML?
    public var heading: FieldHeading
    public var hint: String?
    public var options: [Option]
    public var selected: String?
    public var issue: FieldIssue?
    /// Side by side, for two short options such as Yes and No.
    public var inline: Bool

    public init(name: String, legend: String, heading: FieldHeading = .label, hint: String? = nil, options: [Option],
                selected: String? = nil, issue: FieldIssue? = nil, inline: Bool = false, legendMarkup: HTML? = nil) {
        self.name = name
        self.legend = legend
        self.legendMarkup = legendMarkup
        self.heading = heading
        self.hint = hint
        self.options = options
        self.selected = selected
        self.issue = issue
        self.inline = inline
    }

    public func render(_ messages: Messages = .english) -> HTML {
        let items = RadioGroup.choices(options, name: name, type: "radio", messages: messages) { $0.value == selected }
        return FieldGroup(field: name, hint: hint, issue: issue, messages: messages).fieldset(legend: legendMarkup ?? "\(legend)", heading: heading,
                                                                           controls: "<div class=\"choices\(inline ? " choices--inline" : "")\">\(items)</div>")
    }

    /// Each option as an input with its label and hint, for radios and checkboxes alike. An option's hint id has
    /// its own suffix, so the first option's never equals the group's hint id.
    static func choices(_ options: [Option], name: String, type: String, messages: Messages, isChosen: (Option) -> Bool) -> [HTML] {
        options.enumerated().map { index, option -> HTML in
            let id = FieldID.option(name, index)
            let checked: HTML = isChosen(option) ? " checked" : .empty
            let hintID = id + "-item-hint"
            let described: HTML = option.hint == nil ? .empty : " aria-describedby=\"\(hintID)\""
            let optionHint: HTML = option.hint.map { "<div id=\"\(hintID)\" class=\"hint choice__hint\">\($0)</div>" } ?? .empty
            let divider: HTML = option.dividerBefore ? "<div class=\"choices__divider\">\(messages[.choicesDivider])</div>" : .empty
            return """
            \(divider)<div class="choice">
            <input class="choice__input" id="\(id)" name="\(name)" type="\(type)" value="\(option.value)"\(checked)\(described)>
            <label class="choice__label" for="\(id)">\(option.label)</label>
            \(optionHint)
            </div>
            """
        }
    }
}
