import Testing
import VouchDomain

@Suite struct FixKeyTests {
    @Test(arguments: [
        "a", "0", "tv-channel-selector-labels", "settings.screen_labels-2", "9lives", "a-", "a.",
        String(repeating: "a", count: 100),
    ])
    func validKeys(text: String) throws {
        #expect(FixKey.isValid(text))
        #expect(try FixKey(validating: text).rawValue == text)
    }

    @Test(arguments: [
        "", String(repeating: "a", count: 101), "Menu-fix", "menuFix", "-menu", ".menu", "_menu",
        "café", "ü", "menu fix", "menu/fix", "menu:fix", "menu\n", "ｍenu",
    ])
    func invalidKeys(text: String) throws {
        #expect(!FixKey.isValid(text))
        let error = try #require(throws: FieldError.self) { try FixKey(validating: text) }
        #expect(error.field == "key")
        #expect(error.message == "must be \(FixKey.rule)")
    }

    @Test func errorNamesTheGivenField() throws {
        let error = try #require(throws: FieldError.self) { try FixKey(validating: "Bad", field: "fix") }
        #expect(error.field == "fix")
        #expect(error.description.hasPrefix("fix: must be 1 to 100 characters"))
    }

    @Test func describesAndOrdersByRawValue() throws {
        let first = try FixKey(validating: "a-fix")
        let second = try FixKey(validating: "b-fix")
        #expect(first.description == "a-fix")
        #expect(first < second)
        #expect([second, first].sorted() == [first, second])
    }
}
