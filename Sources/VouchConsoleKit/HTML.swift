/// A piece of markup. Interpolated text is escaped unless it is itself `HTML`, so a page cannot carry a tester's
/// comment or a fix title as markup by mistake (docs/console.md, "Rendering").
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var markup: String

    /// Markup written by hand in the source; never call this with text that came from a request or the store.
    public init(trusted markup: String) { self.markup = markup }

    public init(stringLiteral value: String) { markup = value }

    public init(stringInterpolation: Interpolation) { markup = stringInterpolation.markup }

    public static let empty = HTML(trusted: "")

    public var description: String { markup }

    /// Joins pieces of markup, with `separator` between them.
    public static func join(_ pieces: [HTML], separator: HTML = .empty) -> HTML {
        HTML(trusted: pieces.map(\.markup).joined(separator: separator.markup))
    }

    public static func + (left: HTML, right: HTML) -> HTML { HTML(trusted: left.markup + right.markup) }

    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        public init(literalCapacity: Int, interpolationCount: Int) { markup.reserveCapacity(literalCapacity + interpolationCount * 16) }

        public mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Text: escaped for an element's content or a quoted attribute value.
        public mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }

        public mutating func appendInterpolation(_ number: Int) { markup += String(number) }

        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        public mutating func appendInterpolation(_ pieces: [HTML]) { for piece in pieces { markup += piece.markup } }

        public mutating func appendInterpolation(_ html: HTML?) { if let html { markup += html.markup } }
    }

    /// Escapes the five characters that could end a text node or a quoted attribute.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
