import Testing
import VouchDomain

/// A consent text's file becomes the words she reads: notes left out, the operator filled in, read as headings,
/// paragraphs and lists.
struct ConsentTextTests {
    @Test func aTemplateBecomesTheTextSheReads() {
        let template = """
            # A note for whoever edits this file.

            ## Who runs it
            {operator.name} runs it; write to {operator.contact}.
            Second paragraph.

            - one
            - two
            #not a note, since a note starts with "# "

            """
        let text = ConsentText(version: "2026-12", language: "en", template: template, operatorName: "Example Media", operatorContact: "privacy@example.com")
        #expect(text.body.hasPrefix("## Who runs it\nExample Media runs it; write to privacy@example.com."))
        #expect(!text.body.contains("A note"))
        #expect(text.blocks == [.heading("Who runs it"), .paragraph("Example Media runs it; write to privacy@example.com."),
                                .paragraph("Second paragraph."), .list(["one", "two"]), .paragraph("#not a note, since a note starts with \"# \"")])
    }

    @Test(arguments: ["2026-12", "v2", "2027.1_b", String(repeating: "9", count: 32)])
    func versionsThatAreAccepted(version: String) {
        #expect(ConsentText.isValidVersion(version))
    }

    @Test(arguments: ["", "-2026", ".hidden", "2026 12", "2026/12", "版1", String(repeating: "9", count: 33)])
    func versionsThatAreRefused(version: String) {
        #expect(!ConsentText.isValidVersion(version))
    }

    @Test func aWebProfileNamesItsBrowserAndNoOtherDoes() throws {
        #expect(try AssistiveTechProfile(parsing: "nvda:web:2024.4:firefox", field: "f")
                    == AssistiveTechProfile(technology: .nvda, platform: .web, version: "2024.4", browser: .firefox))
        #expect(try AssistiveTechProfile(parsing: "nvda:web::chrome", field: "f") == AssistiveTechProfile(technology: .nvda, platform: .web, browser: .chrome))
        #expect(throws: FieldError.self) { try AssistiveTechProfile(parsing: "voiceover:ios:18:safari", field: "f") }
        #expect(throws: FieldError.self) { try AssistiveTechProfile(parsing: "nvda:web:1:netscape", field: "f") }
    }
}
