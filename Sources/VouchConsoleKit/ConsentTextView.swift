import VouchDomain

/// A consent text on a page: its sections as second-level headings, its paragraphs and lists, every word escaped
/// (docs/invitations.md, "Consent texts"). The words are the file's, so the page's `lang` is the text's.
public struct ConsentTextView: Sendable {
    public var text: ConsentText

    public init(text: ConsentText) { self.text = text }

    public func render() -> HTML {
        let blocks = text.blocks.map { block -> HTML in
            switch block {
            case .heading(let words): "<h2 class=\"heading-m\">\(words)</h2>"
            case .paragraph(let words): "<p class=\"body\">\(words)</p>"
            case .list(let items): "<ul class=\"list\">\(items.map { item -> HTML in "<li>\(item)</li>" })</ul>"
            }
        }
        return "<div class=\"consent-text\" lang=\"\(text.language)\">\(blocks)</div>"
    }
}
