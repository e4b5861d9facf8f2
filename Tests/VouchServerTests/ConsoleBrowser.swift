import Foundation
import VouchClient

/// A browser for console tests: keeps cookies like one (by name, `Max-Age=0` deletes), sends forms, follows nothing.
final class ConsoleBrowser {
    let port: UInt16
    private(set) var cookies: [String: String] = [:]
    private let client = HTTPClient(timeoutSeconds: 10)

    init(port: UInt16) { self.port = port }

    struct Page {
        var status: Int
        var headers: [String: String]
        var html: String
        var location: String? { headers["location"] }
        /// The value of the form's hidden CSRF field (the first form on the page).
        var csrf: String? { ConsoleBrowser.hiddenValue("csrf", in: html) }
        /// Every `Set-Cookie` line of the answer.
        var setCookies: [String] { headers["set-cookie"]?.split(separator: "\n").map(String.init) ?? [] }
    }

    func get(_ path: String, headers extra: [(String, String)] = []) throws -> Page {
        try send("GET", path, body: nil, headers: extra)
    }

    /// Posts `fields` as a form; the page's CSRF token is added unless the fields carry their own.
    func post(_ path: String, _ fields: [(String, String)], headers extra: [(String, String)] = []) throws -> Page {
        let body = fields.map { ConsoleBrowser.encode($0.0) + "=" + ConsoleBrowser.encode($0.1) }.joined(separator: "&")
        return try send("POST", path, body: Array(body.utf8), headers: [("Content-Type", "application/x-www-form-urlencoded")] + extra)
    }

    private func send(_ method: String, _ path: String, body: [UInt8]?, headers extra: [(String, String)]) throws -> Page {
        var headers = extra
        if !cookies.isEmpty { headers.append(("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))) }
        let response = try client.send(method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: body)
        let page = Page(status: response.status, headers: response.headers, html: String(decoding: response.body, as: UTF8.self))
        for line in page.setCookies {
            let pair = line.split(separator: ";")[0]
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            if line.contains("Max-Age=0") || value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
        }
        return page
    }

    /// Opens a personal link as a person does: its page, then its one button (a POST, which signs in).
    func openLink(_ path: String) throws -> Page {
        let page = try get(path)
        guard page.status == 200, let csrf = page.csrf else { return page }
        return try post(path, [("csrf", csrf)])
    }

    /// Forgets or replaces a cookie, as an attacker's browser or a copied cookie would.
    func setCookie(_ name: String, _ value: String?) { cookies[name] = value }

    static func hiddenValue(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
