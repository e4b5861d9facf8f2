/// Text people wrote rather than the catalogs: a fix's title, UI area and expected announcement, in the language they
/// wrote it in (docs/console.md, "Languages").
extension Messages {
    /// The text, marked with its own `lang` when that differs from the page's, so a screen reader reads a Japanese
    /// title in a Japanese voice on an English page; as it is when the languages match or its language is unknown.
    public func authored(_ text: String, language: String?) -> HTML {
        guard let language, language != self.language.rawValue else { return "\(text)" }
        return "<span lang=\"\(language)\">\(text)</span>"
    }
}
