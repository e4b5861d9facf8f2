import VouchConsoleKit
import VouchDomain

/// The words for feedback fields and their stored values, as the tester reads them on the check page and in errors.
enum FeedbackWording {
    /// What a field is about, to start a sentence or label a row.
    static func subject(_ field: String, _ messages: Messages = .english) -> String {
        let key: MessageKey? = switch field {
        case "platform": .subjectPlatform
        case "os_version": .subjectOsVersion
        case "app_build": .subjectAppBuild
        case "device": .subjectDevice
        case "browser": .subjectBrowser
        case "browser_version": .subjectBrowserVersion
        case "assistive_tech": .subjectAssistiveTechnology
        case "at_version": .subjectTechnologyVersion
        case "verdict": .subjectVerdict
        case "task_outcome": .subjectTask
        case "severity": .subjectSeverity
        case "name_announced": .subjectNameAnnounced
        case "role_announced": .subjectRoleAnnounced
        case "state_announced": .subjectStateAnnounced
        case "focus_order": .subjectFocusOrder
        case "heard": .subjectHeard
        case "regression": .subjectRegression
        case "comment": .subjectComment
        default: nil
        }
        return key.map { messages[$0] } ?? field
    }

    /// A stored answer in words: "Yes, it works" rather than `passed`; text answers as typed.
    static func value(_ field: String, _ answer: String, platform: Platform? = nil, _ messages: Messages = .english) -> String {
        switch field {
        // The number as it will be stored, after the platform's name: "iOS 18.2" whether she typed "18.2" or "iOS 18.2".
        case "os_version" where platform == .ios || platform == .android:
            platform.map { Words.platform($0) + " " + FeedbackValidator.osVersionNumber(answer, platform: $0) } ?? answer
        case "platform": Platform(rawValue: answer).map(Words.platform) ?? answer
        case "browser": Browser(rawValue: answer).map(messages.browser) ?? answer
        case "assistive_tech": AssistiveTechnology(rawValue: answer).map(messages.technology) ?? answer
        case "verdict": Verdict(rawValue: answer).map(messages.verdict) ?? answer
        case "task_outcome": TaskOutcome(rawValue: answer).map(messages.taskOutcome) ?? answer
        case "severity": Severity(rawValue: answer).map(messages.severity) ?? answer
        case "name_announced", "role_announced", "state_announced", "focus_order": Announcement(rawValue: answer).map(messages.announcement) ?? answer
        case "regression": answer == "yes" ? messages[.answerYes] : answer == "no" ? messages[.answerNo] : answer
        default: answer
        }
    }

    /// "VoiceOver", "Braille display": a technology's name as a label starts.
    static func technologyName(_ technology: AssistiveTechnology) -> String {
        Messages.english.technology(technology)
    }

    /// Screen readers announce names, roles and states; with other technologies those questions may not apply.
    static func isScreenReader(_ technology: AssistiveTechnology) -> Bool {
        [.voiceover, .talkback, .nvda, .jaws, .narrator, .orca, .chromevox].contains(technology)
    }
}
