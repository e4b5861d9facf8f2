import Testing
@testable import VouchConsoleKit

struct SelectTests {
    @Test func nothingIsChosenUntilThePersonChooses() {
        let html = Select(name: "assistive_tech[0].name", label: "Technology", options: [.init("voiceover", "VoiceOver"), .init("talkback", "TalkBack")],
                          placeholder: "Choose a technology").render().markup
        #expect(html.contains("<label class=\"label\" for=\"field-assistive-tech-0--name\">Technology</label>"))
        #expect(html.contains("<select class=\"select\" id=\"field-assistive-tech-0--name\" name=\"assistive_tech[0].name\">"))
        #expect(html.contains("<option value=\"\">Choose a technology</option>"))
        #expect(!html.contains("selected"))
    }

    @Test func theChoiceAndItsProblemAreShownAgain() {
        let issue = FieldIssue(field: "assistive_tech[1].platform", message: "Platform is required")
        let html = Select(name: "assistive_tech[1].platform", label: "Platform", options: [.init("ios", "iOS"), .init("web", "Web")],
                          selected: "web", issue: issue).render().markup
        #expect(html.contains("<option value=\"web\" selected>Web</option>"))
        #expect(!html.contains("<option value=\"ios\" selected>"))
        #expect(html.contains("class=\"select select--error\""))
        #expect(html.contains("aria-describedby=\"field-assistive-tech-1--platform-error\""))
    }

    @Test func anOptionsHintNeverSharesItsIDWithTheGroupsHint() {
        let html = CheckboxGroup(name: "testers", legend: "Enroll testers", hint: "Select the testers", options: [.init("t_1", "Aiko", hint: "VoiceOver")])
            .render().markup
        #expect(html.components(separatedBy: "id=\"field-testers-hint\"").count == 2, "the group's hint, once")
        #expect(html.contains("id=\"field-testers-item-hint\""))
    }
}
