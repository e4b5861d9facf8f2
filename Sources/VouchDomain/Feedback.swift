import Foundation

/// One structured report by one tester on one fix revision (docs/lifecycle.md, "Feedback").
public struct Feedback: Sendable, Equatable {
    public var id: String
    public var fixKey: String
    public var revision: Int
    /// Nil once the tester withdrew: the verdict stays, unlinked from the person.
    public var testerID: String?
    public var platform: Platform
    public var osVersion: String
    public var device: String?
    public var appBuild: String
    public var assistiveTech: AssistiveTechnology
    public var atVersion: String?
    /// The browser, for web feedback only (required there, absent elsewhere).
    public var browser: Browser?
    public var browserVersion: String?
    public var verdict: Verdict
    public var taskOutcome: TaskOutcome
    public var severity: Severity
    public var nameAnnounced: Announcement?
    public var roleAnnounced: Announcement?
    public var stateAnnounced: Announcement?
    public var focusOrder: Announcement?
    /// What the screen reader actually said, verbatim.
    public var heard: String?
    public var regression: Bool
    public var wcag: [String]
    /// Free text; erased when the tester withdraws.
    public var comment: String?
    public var channel: FeedbackChannel
    public var recordedBy: String
    public var recordedAt: Date
    /// The personal link it was entered on, when it came through one: who made the link, and who opened it when
    /// staff did (then it is not the tester's own act, and the evidence says so).
    public var link: LinkUse?

    public init(id: String, fixKey: String, revision: Int, testerID: String?, platform: Platform, osVersion: String, device: String? = nil,
                appBuild: String, assistiveTech: AssistiveTechnology, atVersion: String? = nil, browser: Browser? = nil,
                browserVersion: String? = nil, verdict: Verdict, taskOutcome: TaskOutcome,
                severity: Severity, nameAnnounced: Announcement? = nil, roleAnnounced: Announcement? = nil, stateAnnounced: Announcement? = nil,
                focusOrder: Announcement? = nil, heard: String? = nil, regression: Bool = false, wcag: [String] = [], comment: String? = nil,
                channel: FeedbackChannel, recordedBy: String, recordedAt: Date, link: LinkUse? = nil) {
        self.id = id
        self.fixKey = fixKey
        self.revision = revision
        self.testerID = testerID
        self.platform = platform
        self.osVersion = osVersion
        self.device = device
        self.appBuild = appBuild
        self.assistiveTech = assistiveTech
        self.atVersion = atVersion
        self.browser = browser
        self.browserVersion = browserVersion
        self.verdict = verdict
        self.taskOutcome = taskOutcome
        self.severity = severity
        self.nameAnnounced = nameAnnounced
        self.roleAnnounced = roleAnnounced
        self.stateAnnounced = stateAnnounced
        self.focusOrder = focusOrder
        self.heard = heard
        self.regression = regression
        self.wcag = wcag
        self.comment = comment
        self.channel = channel
        self.recordedBy = recordedBy
        self.recordedAt = recordedAt
        self.link = link
    }

    /// Blocking feedback stops promotion: a serious or critical problem, or a regression.
    public var isBlocking: Bool { severity.isBlocking || regression }

    /// States in which a fix takes feedback; after release it is the watch window.
    public static let acceptingStates: [FixState] = [.testing, .promoting, .promotionFailed, .releasing, .released]
}
