/// A language the console is written in: each has a catalog, `Catalogs/<rawValue>.txt` (docs/console.md, "Languages").
/// The raw value is the BCP 47 tag used in `lang` and `hreflang`.
public enum Language: String, CaseIterable, Sendable {
    case ja
    case en

    /// The language's name in itself, as the switcher shows it: a person finds her own language whatever the page's.
    public var nativeName: String {
        switch self {
        case .ja: "日本語"
        case .en: "English"
        }
    }

    /// Whether a count takes the singular: English says "1 tester", Japanese has one form ("1人", "2人").
    func isSingular(_ count: Int) -> Bool {
        switch self {
        case .ja: false
        case .en: count == 1
        }
    }
}
