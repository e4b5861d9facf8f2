/// How a question's label or legend is shown: as the page's `h1` when the page asks one question (so a screen
/// reader hears the question once, GOV.UK's question pages), or as a plain label among other fields.
public enum FieldHeading: Sendable {
    case pageHeading
    case sectionHeading
    case label

    func wrap(_ markup: HTML) -> HTML {
        switch self {
        case .pageHeading: "<h1 class=\"heading-l\">\(markup)</h1>"
        case .sectionHeading: "<h2 class=\"heading-m\">\(markup)</h2>"
        case .label: markup
        }
    }
}
