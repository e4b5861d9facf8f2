import VouchDomain

/// What promotion takes from the configuration: the criteria's defaults and how often its timer looks.
public struct PromotionSettings: Sendable {
    public var criteria: CriteriaSettings
    /// The timer's safety net: it looks at least this often, whatever it expects.
    public var maxTimerSleepMilliseconds: Int
    /// How long the shared timer's lock is held without renewal (several vouchd on one database).
    public var leaseMilliseconds: Int
    /// Which of a fix's changes are told by email, and in which language by default.
    public var notifications: NotificationPlanner

    public init(criteria: CriteriaSettings, maxTimerSleepMilliseconds: Int, leaseMilliseconds: Int,
                notifications: NotificationPlanner = NotificationPlanner(enabled: false, defaultLanguage: "en")) {
        self.notifications = notifications
        self.criteria = criteria
        self.maxTimerSleepMilliseconds = maxTimerSleepMilliseconds
        self.leaseMilliseconds = leaseMilliseconds
    }
}
