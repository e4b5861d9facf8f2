import Foundation

/// The console's words in one language: each message from its catalog (`Catalogs/*.txt`, compiled in as `MessageKey`),
/// with its placeholders filled by name, and numbers, dates and counts written the way the language writes them.
public struct Messages: Sendable {
    public let language: Language

    public init(_ language: Language) { self.language = language }

    /// English, where words are composed without a request whose language is known.
    public static let english = Messages(.en)

    /// The message as written in the catalog.
    public subscript(_ key: MessageKey) -> String {
        switch language {
        case .ja: key.ja
        case .en: key.en
        }
    }

    /// The message with each `{name}` replaced by `values[name]`.
    public func callAsFunction(_ key: MessageKey, _ values: [String: String] = [:]) -> String {
        Messages.fill(self[key], escape: { $0 }) { values[$0] }
    }

    /// The message as markup: its own text escaped, each `{name}` replaced by the markup `values[name]`, such as a
    /// `<time>` element or a link inside a sentence.
    public func html(_ key: MessageKey, _ values: [String: HTML]) -> HTML {
        HTML(trusted: Messages.fill(self[key], escape: HTML.escape) { values[$0]?.markup })
    }

    /// A count with its noun: `one` says a single thing ("1 report") in languages with a singular, `other` the rest
    /// ("2 reports", "2件"); both take `{count}`.
    public func count(_ count: Int, one: MessageKey, other: MessageKey) -> String {
        self(language.isSingular(count) ? one : other, ["count": number(count)])
    }

    /// "iOS, Android" or "iOS、Android": items in a row, as the language separates them.
    public func list(_ items: [String]) -> String {
        items.joined(separator: language == .ja ? "、" : ", ")
    }

    /// "12,345": digits grouped by thousands, as both languages write them.
    public func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// "2026年12月4日 14:03 UTC" or "4 December 2026, 14:03 UTC": the server's times are UTC, and saying so keeps a
    /// tester in Tokyo from reading them as her own time.
    public func time(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let (year, month, day) = (parts.year ?? 0, parts.month ?? 1, parts.day ?? 1)
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        switch language {
        case .ja: return "\(year)年\(month)月\(day)日 \(clock) UTC"
        case .en: return "\(day) \(Messages.englishMonths[month - 1]) \(year), \(clock) UTC"
        }
    }

    /// The `<time>` element for a date, with the machine-readable value.
    public func timeElement(_ date: Date) -> HTML {
        "<time datetime=\"\(date.formatted(.iso8601))\">\(time(date))</time>"
    }

    private static let englishMonths = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                        "October", "November", "December"]

    private static func fill(_ template: String, escape: (String) -> String, value: (String) -> String?) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += escape(String(rest[..<open]))
            let name = String(rest[rest.index(after: open)..<close])
            result += value(name) ?? escape("{\(name)}")
            rest = rest[rest.index(after: close)...]
        }
        return result + escape(String(rest))
    }
}
