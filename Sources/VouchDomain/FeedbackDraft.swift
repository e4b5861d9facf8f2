/// A feedback submission as a client sent it: raw strings, checked by `FeedbackValidator`.
public struct FeedbackDraft: Sendable, Equatable {
    public var tester: String?
    public var platform: String?
    public var osVersion: String?
    public var device: String?
    public var appBuild: String?
    public var assistiveTech: String?
    public var atVersion: String?
    public var browser: String?
    public var browserVersion: String?
    public var verdict: String?
    public var taskOutcome: String?
    public var severity: String?
    public var nameAnnounced: String?
    public var roleAnnounced: String?
    public var stateAnnounced: String?
    public var focusOrder: String?
    public var heard: String?
    public var regression: Bool?
    public var wcag: [String]?
    public var comment: String?
    /// `cli`, `http` or `web`; the server's default when absent.
    public var channel: String?

    public init() {}

    /// The fields every submission must carry, in the order an interviewer asks for them.
    public static let requiredFields = ["tester", "verdict", "task_outcome", "severity", "platform", "os_version", "app_build", "assistive_tech"]
}
