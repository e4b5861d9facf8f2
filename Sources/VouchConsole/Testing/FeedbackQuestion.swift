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

    /// The page's heading, which is also its title.
    var heading: String {
        switch step {
        case .device: "Which device did you test on?"
        case .browser: "Which browser did you use?"
        case .assistiveTechnology: "Which assistive technology did you use?"
        case .verdict: "Did the fix work?"
        case .task: "Could you do what you set out to do in the \(fix.uiArea)?"
        case .severity: "How bad is the worst problem that is left?"
        case .announcements: "What did \(technologyPhrase) tell you in the \(fix.uiArea)?"
        case .heard: "What did \(technologyPhrase) say? (optional)"
        case .regression: "Did anything else stop working while the fix was on?"
        case .comment: "Is there anything else you want to tell the team? (optional)"
        }
    }

    var controls: HTML {
        switch step {
        case .device: device
        case .browser:
            radios("browser", Browser.allCases.map { RadioGroup.Option($0.rawValue, Words.browser($0), dividerBefore: $0 == .other) })
                + text("browser_version", "Browser version (optional)", hint: "For example, 133. It is in the browser's About page.", width: "input--short")
        case .assistiveTechnology: assistiveTechnology
        case .verdict:
            radios("verdict", [RadioGroup.Option("passed", Words.verdict(.passed)), RadioGroup.Option("failed", Words.verdict(.failed)),
                               RadioGroup.Option("cant_tell", Words.verdict(.cantTell), dividerBefore: true)],
                   hint: fix.expectedAnnouncement.map { "When it works, a screen reader should say: “\($0)”." })
        case .task:
            radios("task_outcome", TaskOutcome.allCases.map { RadioGroup.Option($0.rawValue, Words.taskOutcome($0)) },
                   hint: "Whether you got it done, and how. The next question asks how bad the problems are.")
        case .severity:
            radios("severity", Severity.allCases.map { RadioGroup.Option($0.rawValue, Words.severity($0)) }, hint: severityHint)
        case .announcements: announcements
        case .heard:
            TextArea(name: "heard", label: heading, heading: .pageHeading,
                     hint: "Word for word, if you can. " + (fix.expectedAnnouncement.map { "For example: \($0)." } ?? ""),
                     value: answers["heard"] ?? "", issue: issue("heard"), rows: 3).render()
        case .regression:
            radios("regression", [RadioGroup.Option("yes", "Yes"), RadioGroup.Option("no", "No")],
                   hint: "For example, another button that worked before the fix.", inline: true)
        case .comment:
            TextArea(name: "comment", label: heading, heading: .pageHeading,
                     hint: "Up to \(FeedbackValidator.maxComment) characters. The team reads it with your tester number, not your name. It is deleted if you stop testing.",
                     value: answers["comment"] ?? "", issue: issue("comment"), rows: 8).render()
        }
    }

    private var device: HTML {
        let platforms: HTML = fix.platforms.count > 1
            ? RadioGroup(name: "platform", legend: "Platform", options: fix.platforms.map { RadioGroup.Option($0.rawValue, Words.platform($0)) },
                         selected: answers["platform"], issue: issue("platform"), inline: true).render()
            : "<p class=\"body\">Platform: \(Words.platform(fix.platforms[0]))</p>"
        return """
        <h1 class="heading-l">\(heading)</h1>
        \(platforms)
        \(text("os_version", "Operating system version", hint: osVersionHint, width: "input--medium"))
        \(text("app_build", "Version or build of the app", hint: "It is in the app's settings or About screen. For example, 5.12 (2041).", width: "input--medium"))
        \(text("device", "Device (optional)", hint: "For example, iPhone 15 or Pixel 8.", width: "input--medium"))
        """
    }

    /// The number only where the platform names the system already (the stored value would say "iOS" twice); on the
    /// web, the computer's system. The domain drops a platform name typed anyway.
    private var osVersionHint: String {
        switch answers.platform(for: fix) {
        case .ios: "The number only, for example 18.2. It is in Settings, General, About."
        case .android: "The number only, for example 15. It is in Settings, About phone."
        case .web: "Your computer's system and its version, for example Windows 11 or macOS 15."
        case nil: "On a phone, the number only: for example 18.2 on iOS or 15 on Android. On the web, your computer's system, for example Windows 11."
        }
    }

    /// What the severity means beside the task's outcome, and which choices fit what she said before: the worst problem
    /// is rated whether or not she found a way round it (docs/console.md, "Task outcome and severity").
    private var severityHint: String {
        var hint = "Think of the worst problem that is left, even if you found a way round it."
        if answers["task_outcome"] == TaskOutcome.notCompleted.rawValue {
            hint += " You could not finish the task, so choose Serious or Critical."
        } else if answers["verdict"] == Verdict.failed.rawValue {
            hint += " The fix did not work, so choose Moderate, Serious or Critical."
        }
        return hint
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
        let options = own.map { RadioGroup.Option($0.rawValue, FeedbackWording.technologyName($0)) }
            + others.enumerated().map { index, technology in
                RadioGroup.Option(technology.rawValue, FeedbackWording.technologyName(technology), dividerBefore: index == 0 && !own.isEmpty)
            }
        let hint = suggestion == nil ? nil : "We chose what the team noted that you use. Change it if you used something else this time."
        return RadioGroup(name: "assistive_tech", legend: heading, heading: .pageHeading, hint: hint, options: options, selected: chosen,
                          issue: issue("assistive_tech")).render()
            + TextField(name: "at_version", label: "Version (optional)", hint: "For example, 18.2.", value: version ?? "", issue: issue("at_version"),
                        width: "input--short").render()
    }

    private var announcements: HTML {
        let choices = Announcement.allCases.map { RadioGroup.Option($0.rawValue, Words.announcement($0)) }
        // "NHK, button, selected" reads as the name, the role and the state a screen reader should say.
        let expected = (fix.expectedAnnouncement ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        func example(_ index: Int, otherwise: String) -> String {
            index < expected.count && !expected[index].isEmpty ? "Here it should say “\(expected[index])”." : otherwise
        }
        let questions: [(field: String, legend: String, hint: String)] = [
            ("name_announced", "Did it say the name of what you reached?", example(0, otherwise: "For example, the words on a button or a heading.")),
            ("role_announced", "Did it say what kind of thing it is?", example(1, otherwise: "For example, button, link, heading or list.")),
            ("state_announced", "Did it say what state it is in?", example(2, otherwise: "For example, selected, checked or expanded.")),
            ("focus_order", "Did it move through the \(fix.uiArea) in a sensible order?", "Each move took you where you expected, without jumping around."),
        ]
        let aims = FixAims(fix: fix)
        let asked = aims.announcementQuestions
        let groups = questions.filter { asked.contains($0.field) }.map { question in
            RadioGroup(name: question.field, legend: question.legend, hint: question.hint, options: choices, selected: answers[question.field],
                       issue: issue(question.field), inline: true).render()
        }
        return """
        <h1 class="heading-l">\(heading)</h1>
        \(aimsParagraph(aims.aims(.english)))
        <p class="body">Answer what you can; you may leave any of these out.</p>
        \(groups)
        """
    }

    /// What the fix should make better, so she knows what the questions are after.
    private func aimsParagraph(_ aims: [String]) -> HTML {
        guard !aims.isEmpty else { return .empty }
        if aims.count == 1 { return "<p class=\"body\">The team changed the \(fix.uiArea) so that: \(aims[0].prefix(1).lowercased() + aims[0].dropFirst()).</p>" }
        return """
        <p class="body">The team changed the \(fix.uiArea) so that:</p>
        <ul class="list">\(aims.map { aim -> HTML in "<li>\(aim.prefix(1).lowercased() + aim.dropFirst())</li>" })</ul>
        """
    }

    /// "VoiceOver" when she named a screen reader, otherwise "your assistive technology".
    private var technologyPhrase: String {
        guard let technology = answers["assistive_tech"].flatMap(AssistiveTechnology.init(rawValue:)),
              FeedbackWording.isScreenReader(technology) else { return "your assistive technology" }
        return FeedbackWording.technologyName(technology)
    }

    private func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }

    private func radios(_ field: String, _ options: [RadioGroup.Option], hint: String? = nil, inline: Bool = false) -> HTML {
        RadioGroup(name: field, legend: heading, heading: .pageHeading, hint: hint, options: options, selected: answers[field],
                   issue: issue(field), inline: inline).render()
    }

    private func text(_ field: String, _ label: String, hint: String, width: String) -> HTML {
        TextField(name: field, label: label, hint: hint, value: answers[field] ?? "", issue: issue(field), width: width).render()
    }
}
