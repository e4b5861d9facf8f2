/// What every field shares: the hint and the error message under its label, both named by the control's
/// `aria-describedby`, and the red bar beside a field in error.
struct FieldGroup {
    var field: String
    var hint: String?
    var issue: FieldIssue?
    var messages: Messages = .english

    var describedBy: String? {
        let ids = [hint.map { _ in FieldID.hint(field) }, issue.map { _ in FieldID.error(field) }].compactMap { $0 }
        return ids.isEmpty ? nil : ids.joined(separator: " ")
    }

    var describedByAttribute: HTML { describedBy.map { " aria-describedby=\"\($0)\"" } ?? .empty }

    var hintAndError: HTML {
        let hintMarkup: HTML = hint.map { "<div id=\"\(FieldID.hint(field))\" class=\"hint\">\($0)</div>" } ?? .empty
        let errorMarkup: HTML = issue.map {
            "<p id=\"\(FieldID.error(field))\" class=\"error-message\"><span class=\"visually-hidden\">\(messages[.errorMessagePrefix])</span> \($0.markup(messages))</p>"
        } ?? .empty
        return hintMarkup + errorMarkup
    }

    var groupClass: HTML { issue == nil ? "form-group" : "form-group form-group--error" }

    /// Radios and checkboxes: the legend is the question, and the fieldset carries the hint and the error.
    func fieldset(legend: HTML, heading: FieldHeading, controls: HTML) -> HTML {
        """
        <div class="\(groupClass)">
        <fieldset class="fieldset"\(describedByAttribute)>
        <legend class="fieldset__legend\(heading == .label ? "" : " fieldset__legend--heading")">\(heading.wrap(legend))</legend>
        \(hintAndError)
        \(controls)
        </fieldset>
        </div>
        """
    }

    /// A single control: its label (inside the `h1` on a one-question page), then hint and error, then the control.
    func single(label: String, heading: FieldHeading, control: HTML) -> HTML {
        let labelMarkup: HTML = "<label class=\"label\(heading == .label ? "" : " label--heading")\" for=\"\(FieldID.control(field))\">\(label)</label>"
        let labelled: HTML = switch heading {
        case .pageHeading: "<h1 class=\"heading-l label-wrapper\">\(labelMarkup)</h1>"
        case .sectionHeading: "<h2 class=\"heading-m label-wrapper\">\(labelMarkup)</h2>"
        case .label: labelMarkup
        }
        return """
        <div class="\(groupClass)">
        \(labelled)
        \(hintAndError)
        \(control)
        </div>
        """
    }
}
