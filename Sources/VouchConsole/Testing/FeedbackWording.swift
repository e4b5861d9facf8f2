import VouchConsoleKit
import VouchDomain

/// The words for feedback fields and their stored values, as the tester reads them on the check page and in errors.
enum FeedbackWording {
    /// What a field is about, to start a sentence or label a row.
    static func subject(_ field: String) -> String {
        switch field {
        case "platform": "Platform"
        case "os_version": "Operating system version"
        case "app_build": "App version or build"
        case "device": "Device"
        case "browser": "Browser"
        case "browser_version": "Browser version"
        case "assistive_tech": "Assistive technology"
        case "at_version": "Version of your assistive technology"
        case "verdict": "Did the fix work"
        case "task_outcome": "Could you do it"
        case "severity": "Worst problem left"
        case "name_announced": "It said the name"
        case "role_announced": "It said what kind of thing it is"
        case "state_announced": "It said its state"
        case "focus_order": "It moved in a sensible order"
        case "heard": "What it said"
        case "regression": "Something else stopped working"
        case "comment": "Comment"
        default: field
        }
    }

    /// A stored answer in words: "Yes, it works" rather than `passed`; text answers as typed.
    static func value(_ field: String, _ answer: String, platform: Platform? = nil) -> String {
        switch field {
        // The number as it will be stored, after the platform's name: "iOS 18.2" whether she typed "18.2" or "iOS 18.2".
        case "os_version" where platform == .ios || platform == .android:
            platform.map { Words.platform($0) + " " + FeedbackValidator.osVersionNumber(answer, platform: $0) } ?? answer
        case "platform": Platform(rawValue: answer).map(Words.platform) ?? answer
        case "browser": Browser(rawValue: answer).map(Words.browser) ?? answer
        case "assistive_tech": AssistiveTechnology(rawValue: answer).map(technologyName) ?? answer
        case "verdict": Verdict(rawValue: answer).map(Words.verdict) ?? answer
        case "task_outcome": TaskOutcome(rawValue: answer).map(Words.taskOutcome) ?? answer
        case "severity": Severity(rawValue: answer).map(Words.severity) ?? answer
        case "name_announced", "role_announced", "state_announced", "focus_order": Announcement(rawValue: answer).map(Words.announcement) ?? answer
        case "regression": answer == "yes" ? "Yes" : answer == "no" ? "No" : answer
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
