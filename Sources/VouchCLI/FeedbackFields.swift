import VouchDomain

/// A feedback record's fields as options (the API's field names in kebab-case), labels and questions, for `feedback submit`.
enum FeedbackFields {
    /// One text or enumerated field of the record.
    struct Field {
        /// The API's name, such as `task_outcome`.
        var name: String
        /// How the read-back names it, such as "Task outcome".
        var label: String
        var option: CommandOption
        /// The question for free text, such as "OS version, such as 18.2:"; enumerated fields number their choices instead.
        var question = ""
        var limit = FeedbackValidator.maxShortText

        /// The choices the interview offers, each in the words the read-back says for it.
        var choices: [Prompter.Choice] {
            option.allowedValues.map { Prompter.Choice(value: $0, words: SpokenWords.say($0, ofField: name)) }
        }
    }

    private static func names<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> [String] where T.RawValue == String {
        type.allCases.map(\.rawValue)
    }

    static let tester = Field(name: "tester", label: "Tester",
                              option: .asked("tester", "id", help: "The tester's id, such as t_4w9tedpdf8fc; with a tester token, its own tester's id."),
                              question: "Tester id, such as t_4w9tedpdf8fc:")
    static let verdict = Field(name: "verdict", label: "Verdict",
                               option: .asked("verdict", "verdict", help: "Does the fix work?", allowed: names(Verdict.self)))
    static let taskOutcome = Field(name: "task_outcome", label: "Task outcome",
                                   option: .asked("task-outcome", "outcome", help: "Could the tester do the task, and how?", allowed: names(TaskOutcome.self)))
    static let severity = Field(name: "severity", label: "Severity",
                                option: .asked("severity", "severity", help: "The worst remaining problem; a failed verdict needs moderate or worse.",
                                               allowed: names(Severity.self)))
    static let platform = Field(name: "platform", label: "Platform",
                                option: .asked("platform", "platform", help: "Where the tester tried the fix.", allowed: names(Platform.self)))
    static let osVersion = Field(name: "os_version", label: "OS version",
                                 option: .asked("os-version", "version", help: "The operating system's version number, such as 18.2."),
                                 question: "OS version, the number only, such as 18.2:")
    static let appBuild = Field(name: "app_build", label: "App build",
                                option: .asked("app-build", "build", help: "The app build tried, such as \"5.4.1 (412)\"."),
                                question: "App build, such as 5.4.1 (412):")
    static let assistiveTech = Field(name: "assistive_tech", label: "Assistive technology",
                                     option: .asked("assistive-tech", "technology", help: "The assistive technology used.",
                                                    allowed: names(AssistiveTechnology.self)))

    /// In the order they are asked: the domain's own order.
    static let required = [tester, verdict, taskOutcome, severity, platform, osVersion, appBuild, assistiveTech]

    static let atVersion = Field(name: "at_version", label: "Assistive technology version",
                                 option: .single("at-version", "version", help: "The assistive technology's version, such as 18.2."))
    /// On the web a screen reader is tested together with a browser; asked for when the platform is the web.
    static let browser = Field(name: "browser", label: "Browser",
                               option: .single("browser", "browser", help: "The browser, for the web only (required there).", allowed: names(Browser.self)))
    static let browserVersion = Field(name: "browser_version", label: "Browser version",
                                      option: .single("browser-version", "version", help: "The browser's version, such as 131, for the web only."))
    static let device = Field(name: "device", label: "Device", option: .single("device", "name", help: "The device, such as \"iPhone 15\"."))

    private static func announcement(_ name: String, _ label: String, _ help: String) -> Field {
        Field(name: name, label: label,
              option: .single(name.replacingOccurrences(of: "_", with: "-"), "answer", help: help, allowed: names(Announcement.self)))
    }

    static let announcements = [
        announcement("name_announced", "Name announced", "Did the screen reader say the element's name (WCAG 4.1.2)?"),
        announcement("role_announced", "Role announced", "Did it say the element's role, such as button (WCAG 4.1.2)?"),
        announcement("state_announced", "State announced", "Did it say the element's state, such as selected (WCAG 4.1.2)?"),
        announcement("focus_order", "Focus order", "Did the focus move in a meaningful order (WCAG 2.4.3)?"),
    ]
    static let heard = Field(name: "heard", label: "Heard",
                             option: .single("heard", "text", help: "What the screen reader actually said, word for word."),
                             question: "What did the assistive technology say, word for word? (optional, press Enter to skip):",
                             limit: FeedbackValidator.maxHeard)
    static let comment = Field(name: "comment", label: "Comment",
                               option: .single("comment", "text", help: "Anything else, in the tester's words; at most 4,000 characters."),
                               question: "Comment (optional, press Enter to skip):", limit: FeedbackValidator.maxComment)

    static let regression = CommandOption.flag("regression", help: "Something else broke while the fix was on.")
    /// The interview's question for `--regression`, in the web console's words.
    static let regressionQuestion = "Did anything else stop working while the fix was on"
    static let wcag = CommandOption.list("wcag", "criterion", help: "A WCAG 2.2 success criterion the problem falls under, such as 4.1.2.")

    /// Every field that carries text, in the API's order; regression and WCAG stand before the comment.
    static let textFields = [tester, verdict, taskOutcome, severity, platform, osVersion, device, appBuild, assistiveTech, atVersion, browser, browserVersion]
        + announcements + [heard]

    static let options = required.map(\.option) + [atVersion.option, browser.option, browserVersion.option, device.option] + announcements.map(\.option)
        + [heard.option, regression, wcag, comment.option]
}
