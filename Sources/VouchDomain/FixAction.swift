/// Everything that can move a fix between states: commands people give and events the daemon records.
public enum FixAction: String, Sendable, CaseIterable {
    // Commands (`POST /v1/fixes/{key}/{action}`).
    case start
    case revise
    case pause
    case resume
    case abandon
    case rollback
    case promote
    case retryPromotion = "retry-promotion"
    // Events the daemon itself records.
    case promotionSucceeded = "promotion-succeeded"
    case promotionSucceededPhased = "promotion-succeeded-phased"
    case promotionFailed = "promotion-failed"
    case rolloutCompleted = "rollout-completed"

    /// The actions a person may request over the API.
    public static let commands: [FixAction] = [.start, .revise, .pause, .resume, .abandon, .rollback, .promote, .retryPromotion]

    public var isCommand: Bool { FixAction.commands.contains(self) }
}
