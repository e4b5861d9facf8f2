import VouchConsoleKit
import VouchHTTP

/// A page that asks before something far-reaching: what will happen and to whom, in words, then the button that does
/// it and a way back that does nothing.
struct Confirmation {
    var title: String
    /// The heading, when it marks part of the title (a fix's title in its own language); the title otherwise.
    var heading: HTML?
    var back: BackLink
    /// What will happen, in words and numbers.
    var consequences: HTML
    /// Where the form posts.
    var action: String
    var button: Button
    /// Fields the action takes (a revision's note), before the button.
    var fields: HTML = .empty
    var issues: [FieldIssue] = []

    func response(_ request: ConsoleRequest) -> HTTPResponse {
        let messages = request.messages
        let buttons: HTML = """
        <div class="button-group">\(button.render())
        <a href="\(back.href)">\(messages[.confirmationCancel])</a></div>
        """
        let content: HTML = """
        <h1 class="heading-l">\(heading ?? "\(title)")</h1>
        \(consequences)
        \(request.form(action, fields + buttons))
        """
        return request.translatedPage(title, issues: issues, backLink: back, content: content)
    }
}
