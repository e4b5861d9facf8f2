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
        request.page("Accessibility of this console", content: """
        <h1 class="heading-l">Accessibility of this console</h1>
        <p class="body">Vouch exists so that people who use assistive technology can tell teams whether a fix works for them. This console must work for them first.</p>
        <h2 class="heading-m">What we aim for</h2>
        <p class="body">Every page meets the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA. You can:</p>
        <ul class="list">
        <li>use every page with a keyboard alone, and always see where the focus is</li>
        <li>use a screen reader: every page has one main heading, landmarks, and labels on every control</li>
        <li>zoom to 400 %, or make the text twice as large, and read everything without scrolling sideways</li>
        <li>use every page with JavaScript switched off: the console sends none</li>
        <li>answer one question at a time when you give feedback, and check your answers before you send them</li>
        <li>stay signed in for a day without activity, so no time limit hurries you</li>
        </ul>
        <h2 class="heading-m">How we test it</h2>
        <p class="body">Each release is checked in a real browser: axe-core on every page and state, the browser's accessibility tree, keyboard-only journeys, reflow at 320 CSS pixels and text at 200 %. Automated checks find only part of the problems, so the people who test fixes with us are also the people we ask about the console.</p>
        <h2 class="heading-m">Tell us about a problem</h2>
        <p class="body">If something in the console does not work with your assistive technology, tell the team who invited you. Say which page, what you tried and which technology you use, only if you want to.</p>
        """)
    }
}
