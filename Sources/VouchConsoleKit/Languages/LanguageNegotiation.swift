import Foundation

/// Which language a request is answered in: the person's own choice first (`?lang=` on the address, which the
/// switcher's links carry, then the cookie the console set when she chose), else the browser's `Accept-Language`,
/// else the server's `console.default_language` (docs/console.md, "Languages"). Pure, so every case is a test.
public enum LanguageNegotiation {
    /// The query parameter the switcher's links carry.
    public static let queryName = "lang"
    /// The cookie that keeps her choice for the pages that follow.
    public static let cookieName = "vouch_lang"

    public static func language(query: String?, cookie: String?, acceptLanguage: String?, default fallback: Language) -> Language {
        if let query, let chosen = Language(rawValue: query) { return chosen }
        if let cookie, let chosen = Language(rawValue: cookie) { return chosen }
        return acceptLanguage.flatMap(preferred(acceptLanguage:)) ?? fallback
    }

    /// The language the browser likes best among ours (RFC 9110, 12.5.4): the highest `q`, the earlier on a tie;
    /// a range matches by its primary subtag (`ja-JP` is Japanese); `q=0` refuses; `*` names none of ours in particular.
    /// Nil when it names none of ours.
    public static func preferred(acceptLanguage: String) -> Language? {
        var best: (language: Language, quality: Double)?
        for item in acceptLanguage.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                guard let value = Double(parameter.dropFirst(2)), (0...1).contains(value) else { quality = -1; break }
                quality = value
            }
            let primary = range.split(separator: "-").first.map(String.init) ?? range
            guard quality > 0, let language = Language(rawValue: primary) else { continue }
            if quality > best?.quality ?? 0 { best = (language, quality) }
        }
        return best?.language
    }
}
