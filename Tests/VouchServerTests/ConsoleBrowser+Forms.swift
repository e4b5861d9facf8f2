import Foundation

extension ConsoleBrowser {
    /// Opens `page` (the form's own address unless given) as a person would, then sends `fields` to `action` with the
    /// CSRF token that page carried.
    func submit(_ action: String, from page: String? = nil, _ fields: [(String, String)]) throws -> Page {
        let opened = try get(page ?? action)
        return try post(action, [("csrf", opened.csrf ?? "")] + fields)
    }
}

extension ConsoleBrowser {
    /// Opens the address a 303 answer sends to, as a browser does after a form.
    func follow(_ page: Page) throws -> Page {
        guard page.status == 303, let location = page.location else { throw BrowserError("expected a 303 with a Location, got \(page.status)") }
        return try get(location)
    }
}

struct BrowserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ConsoleBrowser.Page {
    /// The `href`s of the error summary's links, in order.
    var summaryLinks: [String] {
        guard let start = html.range(of: "<ul class=\"error-summary__list\">"), let end = html[start.upperBound...].range(of: "</ul>") else { return [] }
        return html[start.upperBound..<end.lowerBound].components(separatedBy: "<a href=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    /// The text of the first element with `class="secret"`.
    var secretText: String? {
        guard let start = html.range(of: "<p class=\"secret\">"), let end = html[start.upperBound...].range(of: "</p>") else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }
}
