import Testing
import VouchJSON
import VouchServices

@Suite struct OpenACRMarkdownTests {
    @Test func aTablePerLevelWithARowPerCriterionAndComponent() {
        let adherence: (String, String) -> JSONValue = { level, notes in .object(["level": .string(level), "notes": .string(notes)]) }
        let report: JSONValue = .object([
            "title": .string("Example | TV Accessibility Conformance Report"),
            "product": .object(["name": .string("Example | TV"), "version": .string("5.4")]),
            "author": .object(["name": .string("Example Media"), "email": .string("a11y@example.com")]),
            "chapters": .object(["success_criteria_level_a": .object(["criteria": .array([
                .object(["num": .string("4.1.2"), "components": .array([
                    .object(["name": .string("software"), "adherence": adherence("supports", "Passed: 2 testers.\nAll *good*")]),
                    .object(["name": .string("web"), "adherence": adherence("not-evaluated", "None")]),
                ])]),
            ])])]),
        ])
        let page = OpenACRMarkdown.string(report)
        #expect(page.hasPrefix("# Example \\| TV Accessibility Conformance Report\n\n- Product: Example \\| TV, version 5.4\n"))
        #expect(page.contains("""
            ## Table 1: Success Criteria, Level A

            | Criteria | Component | Conformance Level | Remarks and Explanations |
            | --- | --- | --- | --- |
            | 4.1.2 Name, Role, Value | Software | Supports | Passed: 2 testers. All \\*good\\* |
            | 4.1.2 Name, Role, Value | Web | Not Evaluated | None |

            ## Table 2: Success Criteria, Level AA
            """))
    }
}
