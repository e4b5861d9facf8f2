import Foundation
import Testing
@testable import VouchConsoleKit

struct PageTests {
    @Test func aPageWithProblemsSaysErrorFirstAndLinksEachField() {
        let issue = FieldIssue(field: "verdict", message: "Select whether the fix worked")
        let page = Page(title: "Did the fix work?", issues: [issue],
                        content: RadioGroup(name: "verdict", legend: "Did the fix work?", heading: .pageHeading,
                                            options: [.init("passed", "Yes"), .init("failed", "No")], issue: issue).render())
        let html = page.render()
        #expect(html.contains("<title>Error: Did the fix work? – Vouch</title>"))
        #expect(html.contains("<a href=\"#field-verdict\">Select whether the fix worked</a>"))
        #expect(html.contains("id=\"field-verdict\" name=\"verdict\" type=\"radio\" value=\"passed\""))
        #expect(html.contains("aria-describedby=\"field-verdict-error\""))
        #expect(html.contains("<span class=\"visually-hidden\">Error:</span> Select whether the fix worked"))
        #expect(!html.contains("checked"), "no option is chosen for the tester")
    }

    @Test func aPageWithoutProblemsHasAPlainTitleAndTheSkipLinkFirst() throws {
        let html = Page(title: "Your fixes", content: "<h1>Your fixes</h1>").render()
        #expect(html.contains("<title>Your fixes – Vouch</title>"))
        #expect(!html.contains("error-summary"))
        let skip = try #require(html.range(of: "Skip to main content"))
        let header = try #require(html.range(of: "<header"))
        #expect(skip.lowerBound < header.lowerBound)
        #expect(html.contains("<main id=\"main-content\""))
        #expect(html.contains("<html lang=\"en\">"))
    }

    @Test func theChosenOptionStaysChosenAfterAnError() {
        let html = RadioGroup(name: "severity", legend: "How bad?", options: [.init("minor", "Minor"), .init("serious", "Serious")],
                              selected: "serious").render().markup
        #expect(html.contains("value=\"serious\" checked"))
        #expect(!html.contains("value=\"minor\" checked"))
    }

    @Test func typedTextIsShownAgainEscaped() {
        let html = TextArea(name: "comment", label: "Comment (optional)", value: "</textarea><b>").render().markup
        #expect(html.contains(">&lt;/textarea&gt;&lt;b&gt;</textarea>"))
    }

    @Test func changeLinksSayWhatTheyChange() {
        let html = SummaryList([.init("What you heard", text: "NHK, button", changeHref: "/x", changeSubject: "what you heard")]).render().markup
        #expect(html.contains("Change<span class=\"visually-hidden\"> what you heard</span>"))
    }

    @Test func fieldIDsAreSafeForAnyAPIFieldName() {
        #expect(FieldID.control("assistive_tech[0].version") == "field-assistive-tech-0--version")
        #expect(FieldID.option("verdict", 2) == "field-verdict-3")
    }
}
