/// The box at the top of a page that failed validation: "There is a problem" and a link to each field in error.
///
/// It takes focus when the page loads (`autofocus` on a `tabindex="-1"` container, so no script is needed), and its
/// inner `role="alert"` container makes screen readers read it at once; the role sits on an inner element because
/// JAWS skipped the list when it was on the outer one (GOV.UK Frontend 4.4.0).
public struct ErrorSummary: Sendable {
    public var issues: [FieldIssue]

    public init(issues: [FieldIssue]) { self.issues = issues }

    func render(_ messages: Messages = .english) -> HTML {
        let items = issues.map { issue -> HTML in "<li><a href=\"#\(FieldID.control(issue.field))\">\(issue.markup(messages))</a></li>" }
        return """
        <div class="error-summary" tabindex="-1" autofocus>
        <div role="alert">
        <h2 class="error-summary__title">\(messages[.errorSummaryTitle])</h2>
        <ul class="error-summary__list">\(items)</ul>
        </div>
        </div>
        """
    }
}
