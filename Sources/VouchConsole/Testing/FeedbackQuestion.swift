import Foundation
import VouchConsoleKit
import VouchDomain

/// The controls of one feedback page: the question as the page's `h1` (the legend or label wrapped in it), what
/// she answered before or just typed, and each problem beside its field. Radios start unchosen, except where her
/// profile already says which assistive technology she uses (WCAG 3.3.7, Redundant Entry).
struct FeedbackQuestion {
    let step: FeedbackStep
    let fix: Fix
    let answers: FeedbackAnswers
    let issues: [FieldIssue]
    /// Her assistive technologies as the team recorded them.
    let profile: [AssistiveTechProfile]
    let messages: Messages

    /// The page's heading, which is also its title.
    var heading: String {
        switch step {
        case .device: messages[.qDevice]
        case .browser: messages[.qBrowser]
        case .assistiveTechnology: messages[.qAssistiveTechnology]
        case .verdict: messages[.qVerdict]
        case .task: messages(.qTask, ["area": fix.uiArea])
        case .severity: messages[.qSeverity]
        case .announcements: messages(.qAnnouncements, ["technology": technologyPhrase, "area": fix.uiArea])
        case .heard: messages(.qHeard, ["technology": technologyPhrase])
        case .regression: messages[.qRegression]
        case .comment: messages[.qComment]
        }
    }

    /// The heading as markup: the fix's UI area keeps the language the team wrote it in (`lang` on a page in another
    /// language), which the plain `heading`, also the page's title, cannot say.
    var headingMarkup: HTML {
        switch step {
        case .task: messages.html(.qTask, ["area": messages.area(of: fix)])
        case .announcements: messages.html(.qAnnouncements, ["technology": "\(technologyPhrase)", "area": messages.area(of: fix)])
        default: "\(heading)"
        }
    }

    var controls: HTML {
        switch step {
        case .device: device
        case .browser:
            radios("browser", Browser.allCases.map { RadioGroup.Option($0.rawValue, messages.browser($0), dividerBefore: $0 == .other) })
                + text("browser_version", messages[.qBrowserVersion], hint: messages[.qBrowserVersionHint], width: "input--short")
        case .assistiveTechnology: assistiveTechnology
        case .verdict:
            radios("verdict", [RadioGroup.Option("passed", messages.verdict(.passed)), RadioGroup.Option("failed", messages.verdict(.failed)),
                               RadioGroup.Option("cant_tell", messages.verdict(.cantTell), dividerBefore: true)],
                   hint: fix.expectedAnnouncement.map { messages(.qVerdictHint, ["expected": $0]) })
        case .task:
            radios("task_outcome", TaskOutcome.allCases.map { RadioGroup.Option($0.rawValue, messages.taskOutcome($0)) }, hint: messages[.qTaskHint])
        case .severity:
            radios("severity", Severity.allCases.map { RadioGroup.Option($0.rawValue, messages.severity($0)) }, hint: severityHint)
        case .announcements: announcements
        case .heard:
            TextArea(name: "heard", label: heading, heading: .pageHeading,
                     hint: fix.expectedAnnouncement.map { messages(.qHeardHintExpected, ["expected": $0]) } ?? messages[.qHeardHint],
                     value: answers["heard"] ?? "", issue: issue("heard"), rows: 3).render(messages)
        case .regression:
            radios("regression", [RadioGroup.Option("yes", messages[.answerYes]), RadioGroup.Option("no", messages[.answerNo])],
                   hint: messages[.qRegressionHint], inline: true)
        case .comment:
            TextArea(name: "comment", label: heading, heading: .pageHeading,
                     hint: messages(.qCommentHint, ["count": messages.number(FeedbackValidator.maxComment)]),
                     value: answers["comment"] ?? "", issue: issue("comment"), rows: 8).render(messages)
        }
    }

    private var device: HTML {
        let platforms: HTML = fix.platforms.count > 1
            ? RadioGroup(name: "platform", legend: messages[.qPlatform], options: fix.platforms.map { RadioGroup.Option($0.rawValue, Words.platform($0)) },
                         selected: answers["platform"], issue: issue("platform"), inline: true).render(messages)
            : "<p class=\"body\">\(messages(.qPlatformIs, ["platform": Words.platform(fix.platforms[0])]))</p>"
        return """
        <h1 class="heading-l">\(heading)</h1>
        \(platforms)
        \(text("os_version", messages[.qOsVersion], hint: osVersionHint, width: "input--medium"))
        \(text("app_build", messages[.qAppBuild], hint: messages[.qAppBuildHint], width: "input--medium"))
        \(text("device", messages[.qDeviceName], hint: messages[.qDeviceNameHint], width: "input--medium"))
        """
    }

    /// The number only where the platform names the system already (the stored value would say "iOS" twice); on the
    /// web, the computer's system. The domain drops a platform name typed anyway.
    private var osVersionHint: String {
        switch answers.platform(for: fix) {
        case .ios: messages[.qOsVersionIOS]
        case .android: messages[.qOsVersionAndroid]
        case .web: messages[.qOsVersionWeb]
        case nil: messages[.qOsVersionAny]
        }
    }

    /// What the severity means beside the task's outcome, and which choices fit what she said before: the worst problem
    /// is rated whether or not she found a way round it (docs/console.md, "Task outcome and severity").
    private var severityHint: String {
        if answers["task_outcome"] == TaskOutcome.notCompleted.rawValue { return messages[.qSeverityHintNotCompleted] }
        if answers["verdict"] == Verdict.failed.rawValue { return messages[.qSeverityHintFailed] }
        return messages[.qSeverityHint]
    }

    /// Her own technologies first, with the one for this platform chosen until she chooses; then the others.
    private var assistiveTechnology: HTML {
        let platform = answers.platform(for: fix)
        let suggestion = profile.first { $0.platform == platform } ?? profile.first
        let chosen = answers["assistive_tech"] ?? suggestion?.technology.rawValue
        let version = answers["at_version"] ?? (answers["assistive_tech"] == nil ? suggestion?.version : nil)
        var own: [AssistiveTechnology] = []
        for entry in profile where !own.contains(entry.technology) { own.append(entry.technology) }
        let others = AssistiveTechnology.allCases.filter { !own.contains($0) }
        let options = own.map { RadioGroup.Option($0.rawValue, messages.technology($0)) }
            + others.enumerated().map { index, technology in
                RadioGroup.Option(technology.rawValue, messages.technology(technology), dividerBefore: index == 0 && !own.isEmpty)
            }
        let hint = suggestion == nil ? nil : messages[.qTechnologyChosen]
        return RadioGroup(name: "assistive_tech", legend: heading, heading: .pageHeading, hint: hint, options: options, selected: chosen,
                          issue: issue("assistive_tech")).render(messages)
            + TextField(name: "at_version", label: messages[.qTechnologyVersion], hint: messages[.qTechnologyVersionHint], value: version ?? "",
                        issue: issue("at_version"), width: "input--short").render(messages)
    }

    private var announcements: HTML {
        let choices = Announcement.allCases.map { RadioGroup.Option($0.rawValue, messages.announcement($0)) }
        // "NHK, button, selected" reads as the name, the role and the state a screen reader should say.
        let expected = (fix.expectedAnnouncement ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        func example(_ index: Int, otherwise: MessageKey) -> String {
            index < expected.count && !expected[index].isEmpty ? messages(.qShouldSay, ["expected": expected[index]]) : messages[otherwise]
        }
        let questions: [(field: String, legend: String, hint: String)] = [
            ("name_announced", messages[.qNameAnnounced], example(0, otherwise: .qNameAnnouncedHint)),
            ("role_announced", messages[.qRoleAnnounced], example(1, otherwise: .qRoleAnnouncedHint)),
            ("state_announced", messages[.qStateAnnounced], example(2, otherwise: .qStateAnnouncedHint)),
            ("focus_order", messages(.qFocusOrder, ["area": fix.uiArea]), messages[.qFocusOrderHint]),
        ]
        let aims = FixAims(fix: fix)
        let asked = aims.announcementQuestions
        let groups = questions.filter { asked.contains($0.field) }.map { question in
            RadioGroup(name: question.field, legend: question.legend, hint: question.hint, options: choices, selected: answers[question.field],
                       issue: issue(question.field), inline: true).render(messages)
        }
        return """
        <h1 class="heading-l">\(headingMarkup)</h1>
        \(aimsParagraph(aims.aims(messages)))
        <p class="body">\(messages[.qAnswerWhatYouCan])</p>
        \(groups)
        """
    }

    /// What the fix should make better, so she knows what the questions are after; in English each aim continues the
    /// sentence, so it starts in lower case.
    private func aimsParagraph(_ aims: [String]) -> HTML {
        guard !aims.isEmpty else { return .empty }
        let continued = aims.map { $0.prefix(1).lowercased() + $0.dropFirst() }
        if aims.count == 1 { return "<p class=\"body\">\(messages(.qAimsOne, ["area": fix.uiArea, "aim": continued[0]]))</p>" }
        return """
        <p class="body">\(messages(.qAimsMany, ["area": fix.uiArea]))</p>
        <ul class="list">\(continued.map { aim -> HTML in "<li>\(aim)</li>" })</ul>
        """
    }

    /// "VoiceOver" when she named a screen reader, otherwise "your assistive technology".
    private var technologyPhrase: String {
        guard let technology = answers["assistive_tech"].flatMap(AssistiveTechnology.init(rawValue:)),
              FeedbackWording.isScreenReader(technology) else { return messages[.qYourTechnology] }
        return messages.technology(technology)
    }

    private func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }

    private func radios(_ field: String, _ options: [RadioGroup.Option], hint: String? = nil, inline: Bool = false) -> HTML {
        RadioGroup(name: field, legend: heading, heading: .pageHeading, hint: hint, options: options, selected: answers[field],
                   issue: issue(field), inline: inline, legendMarkup: headingMarkup).render(messages)
    }

    private func text(_ field: String, _ label: String, hint: String, width: String) -> HTML {
        TextField(name: field, label: label, hint: hint, value: answers[field] ?? "", issue: issue(field), width: width).render(messages)
    }
}
