import Testing
import VouchJSON
import VouchServices

@Suite struct YAMLWriterTests {
    @Test func mappingsAndSequencesNestInBlocks() {
        let value: JSONValue = .object([
            "title": .string("Example TV"),
            "version": .int(3),
            "chapters": .object([
                "success_criteria_level_a": .object(["criteria": .array([
                    .object(["num": .string("1.1.1"), "components": .array([
                        .object(["name": .string("software"), "adherence": .object(["level": .string("supports")])]),
                    ])]),
                ])]),
                "hardware": .object(["disabled": .bool(true)]),
                "empty": .object([:]),
            ]),
            "list": .array([.string("a"), .null, .array([.int(1), .int(2)])]),
            "none": .array([]),
        ])
        #expect(YAMLWriter.string(value) == """
            title: "Example TV"
            version: 3
            chapters:
              success_criteria_level_a:
                criteria:
                  - num: "1.1.1"
                    components:
                      - name: "software"
                        adherence:
                          level: "supports"
              hardware:
                disabled: true
              empty: {}
            list:
              - "a"
              - null
              - - 1
                - 2
            none: []

            """)
    }

    /// Every string is quoted, so none is read back as a number, a boolean or null, and none breaks the structure.
    @Test(arguments: [
        ("no", #""no""#), ("1.10", #""1.10""#), ("a: b # c", #""a: b # c""#), ("say \"hi\"\\", #""say \"hi\"\\""#),
        ("line\nnext\ttab", #""line\nnext\ttab""#), ("\u{85}\u{7}\u{feff}\u{2028}", #""\u0085\u0007\uFEFF\u2028""#), ("テレビ — é", #""テレビ — é""#),
    ])
    func stringsAreQuoted(text: String, written: String) {
        #expect(YAMLWriter.string(.object(["k": .string(text)])) == "k: \(written)\n")
    }

    @Test func keysThatAreNotPlainWordsAreQuoted() {
        #expect(YAMLWriter.string(.object(["en_301_549_ict_with_two-way_voice": .int(1), "yes": .int(2), "a b": .int(3), "-x": .int(4)]))
                == "en_301_549_ict_with_two-way_voice: 1\n\"yes\": 2\n\"a b\": 3\n\"-x\": 4\n")
    }
}
