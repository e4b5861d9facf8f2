import VouchConsoleKit
import VouchHTTP
import VouchServerKit

/// The stylesheet and the accessibility statement: the same for everyone, no sign-in needed.
struct AssetPages {
    let routes: ConsoleRoutes

    package func register(in router: inout APIRouter) {
        routes.get(&router, "/console/assets/{file}", .anyone, asset)
        routes.get(&router, "/console/accessibility", .anyone, statement)
    }

    /// Only the current stylesheet exists; its name changes with its content, so it may be cached for a year.
    func asset(_ request: ConsoleRequest) throws -> HTTPResponse {
        guard request.path == Stylesheet.path else { throw Problem(status: 404, detail: "no such file: \(request.parameter("file"))") }
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "text/css; charset=utf-8"),
                                                   (name: "Cache-Control", value: "public, max-age=31536000, immutable")],
                            body: Array(Stylesheet.css.utf8))
    }

    func statement(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        let abilities: [MessageKey] = [.statementKeyboard, .statementScreenReader, .statementZoom, .statementNoScript, .statementOneQuestion,
                                       .statementTimeLimit]
        return request.translatedPage(messages[.pageAccessibilityLink], content: """
        <h1 class="heading-l">\(messages[.pageAccessibilityLink])</h1>
        <p class="body">\(messages[.statementIntro])</p>
        <h2 class="heading-m">\(messages[.statementAimTitle])</h2>
        <p class="body">\(messages[.statementAim])</p>
        <ul class="list">
        \(abilities.map { key -> HTML in "<li>\(messages[key])</li>" })
        </ul>
        <h2 class="heading-m">\(messages[.statementTestTitle])</h2>
        <p class="body">\(messages[.statementTest])</p>
        <h2 class="heading-m">\(messages[.statementProblemTitle])</h2>
        <p class="body">\(messages[.statementProblem])</p>
        """)
    }
}
