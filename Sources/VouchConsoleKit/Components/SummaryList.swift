/// Pairs of a label and a value (`dl`), as on "Check your answers" or a fix's details; each row may offer a change link
/// whose hidden words say what it changes ("Change what you heard").
public struct SummaryList: Sendable {
    public struct Row: Sendable {
        public var key: String
        public var value: HTML
        public var changeHref: String?
        /// The end of the change link's name, read only by screen readers: "Change" + " what you heard".
        public var changeSubject: String?

        public init(_ key: String, _ value: HTML, changeHref: String? = nil, changeSubject: String? = nil) {
            self.key = key
            self.value = value
            self.changeHref = changeHref
            self.changeSubject = changeSubject
        }

        public init(_ key: String, text: String, changeHref: String? = nil, changeSubject: String? = nil) {
            self.init(key, "\(text)", changeHref: changeHref, changeSubject: changeSubject)
        }
    }

    public var rows: [Row]

    public init(_ rows: [Row]) { self.rows = rows }

    public func render(_ messages: Messages = .english) -> HTML {
        let items = rows.map { row -> HTML in
            let action: HTML = row.changeHref.map { href in
                "<dd class=\"summary-list__actions\"><a href=\"\(href)\">\(messages[.summaryListChange])<span class=\"visually-hidden\"> \(row.changeSubject ?? row.key.lowercased())</span></a></dd>"
            } ?? .empty
            return """
            <div class="summary-list__row">
            <dt class="summary-list__key">\(row.key)</dt>
            <dd class="summary-list__value">\(row.value)</dd>
            \(action)
            </div>
            """
        }
        return "<dl class=\"summary-list\">\(items)</dl>"
    }
}
