import Testing
import VouchDomain

/// Text fields are checked as the OpenAPI document's schemas check them: as sent, in code points, blank as ECMAScript's
/// `\s` means it.
@Suite struct SchemaTextTests {
    @Test(arguments: ["\r", "\u{B}", "\u{C}", "\u{85}", "\u{0}", "\u{7F}", "\u{9F}"])
    func aControlCharacterAtEitherEndIsRefusedAsOneInside(control: String) {
        for text in ["Labels" + control, control + "Labels", "La" + control + "bels"] {
            #expect(SchemaText.problem(text, limit: 200, required: true, lineBreaks: true) != nil, "\(text.debugDescription)")
            #expect(SchemaText.problem(text, limit: 200, required: true, lineBreaks: false) != nil)
        }
    }

    @Test func lineFeedsAndTabsOnlyWhereFreeTextAllowsThem() {
        #expect(SchemaText.problem("a\tb\nc", limit: 10, required: true, lineBreaks: true) == nil)
        #expect(SchemaText.problem("a\tb", limit: 10, required: true, lineBreaks: false) == "must not contain control characters")
        #expect(SchemaText.problem("name\t", limit: 10, required: true, lineBreaks: false) == "must not contain control characters")
    }

    @Test(arguments: ["", " ", "\u{FEFF}", "\u{A0}\u{3000}", "\u{2028}", " \u{FEFF} "])
    func textOfOnlyPatternSpaceIsEmpty(text: String) {
        #expect(SchemaText.isBlank(text))
        #expect(SchemaText.problem(text, limit: 10, required: true, lineBreaks: true) == "must not be empty")
        #expect(SchemaText.problem(text, limit: 10, required: false, lineBreaks: true) == nil)
    }

    /// JSON Schema's `maxLength` counts code points: 150 `e` with a combining accent are 300, past 200.
    @Test func lengthIsInCodePoints() {
        let accented = String(repeating: "e\u{301}", count: 150)
        #expect(accented.count == 150)
        #expect(SchemaText.problem(accented, limit: 200, required: true, lineBreaks: false) == "must be at most 200 characters, got 300")
        #expect(SchemaText.problem(" " + String(repeating: "a", count: 200), limit: 200, required: true, lineBreaks: false) != nil)
    }

    @Test(arguments: [" 1.1.1", "1.1.1 ", "\t4.1.2", "4.1.2\n"])
    func aWCAGNumberIsExact(number: String) {
        #expect(WCAGCatalog.validate([number], field: "wcag").map(\.field) == ["wcag[0]"])
    }
}
