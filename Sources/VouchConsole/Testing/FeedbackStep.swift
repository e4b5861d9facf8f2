import VouchConsoleKit
import VouchDomain

/// One page of the feedback questions: its address, the API fields it asks for, and what must be answered before
/// going on. GOV.UK's question pages: one question a page, or a few close ones (a device's versions) under one heading.
enum FeedbackStep: String, CaseIterable, Sendable {
    case device
    case browser
    case assistiveTechnology = "assistive-technology"
    case verdict
    case task
    case severity
    case announcements
    case heard
    case regression
    case comment

    /// The API fields the page sets; the API's errors on them send her back to this page.
    var fields: [String] {
        switch self {
        case .device: ["platform", "os_version", "app_build", "device"]
        case .browser: ["browser", "browser_version"]
        case .assistiveTechnology: ["assistive_tech", "at_version"]
        case .verdict: ["verdict"]
        case .task: ["task_outcome"]
        case .severity: ["severity"]
        case .announcements: ["name_announced", "role_announced", "state_announced", "focus_order"]
        case .heard: ["heard"]
        case .regression: ["regression"]
        case .comment: ["comment"]
        }
    }

    /// The fields the page asks for this fix: the platform only when the fix ships on more than one, and of the
    /// announcement questions only those the fix concerns (`FixAims`).
    func fields(for fix: Fix) -> [String] {
        switch self {
        case .device where fix.platforms.count == 1: fields.filter { $0 != "platform" }
        case .announcements: FixAims(fix: fix).announcementQuestions
        default: fields
        }
    }

    /// Whether the fix's platforms and her answers so far make this page a question: the browser only for the web.
    func applies(to fix: Fix, answers: FeedbackAnswers) -> Bool {
        switch self {
        // The device page, which comes first, asks for the platform.
        case .browser: answers.platform(for: fix) == .web
        default: true
        }
    }

    /// The fields she must answer on this page, each with what to say when she has not (GOV.UK's error messages:
    /// what to do, not what went wrong).
    func required(for fix: Fix) -> [(field: String, message: MessageKey)] {
        switch self {
        case .device:
            (fix.platforms.count > 1 ? [("platform", .requiredPlatform)] : []) + [("os_version", .requiredOsVersion), ("app_build", .requiredAppBuild)]
        case .browser: [("browser", .requiredBrowser)]
        case .assistiveTechnology: [("assistive_tech", .requiredAssistiveTechnology)]
        case .verdict: [("verdict", .requiredVerdict)]
        case .task: [("task_outcome", .requiredTask)]
        case .severity: [("severity", .requiredSeverity)]
        case .regression: [("regression", .requiredRegression)]
        case .announcements, .heard, .comment: []
        }
    }

    /// The values a choice may take, for the choices the domain has no type for.
    static let regressionChoices = ["yes", "no"]

    /// The pages that are questions for this fix and these answers, in order.
    static func sequence(for fix: Fix, answers: FeedbackAnswers) -> [FeedbackStep] {
        allCases.filter { $0.applies(to: fix, answers: answers) }
    }

    /// The page asking `field`, if any page does.
    static func asking(_ field: String) -> FeedbackStep? {
        allCases.first { $0.fields.contains(field) }
    }
}
