import VouchDomain
import VouchServices
import VouchWebhooks

/// What the application takes from the configuration: criteria defaults, webhook delivery, rollout and CORS settings.
public struct ApplicationSettings: Sendable {
    public var criteria: CriteriaSettings
    public var delivery: DeliveryWorker.Settings
    public var rollout: RolloutPlan
    /// The longest the promotion timer sleeps without being woken.
    public var maxTimerSleepMilliseconds: Int
    /// When repeated unknown tokens from one address are answered 429.
    public var authFailures: AuthFailureLimiter.Settings
    /// A log line per answered request at level info (`log.requests`).
    public var logRequests: Bool
    /// Which web origins may read OFREP answers (`ofrep.cors_origins`).
    public var cors: CORSPolicy
    /// The longest a webhook registration waits for its host name to resolve (`webhooks.dns_timeout`).
    public var dnsTimeoutMilliseconds: Int
    /// OFREP event streams: whether bulk answers offer them, and their limits.
    public var eventStreams: EventStreamSettings
    /// Threads that finish requests which may wait (writes, DNS lookups) while their connection is parked.
    public var workerThreads: Int
    /// The web console under `/console/`: sessions, personal links.
    public var console: ConsoleSettings
    /// With several vouchd on one database, how long one may hold shared work (the promotion timer, a webhook
    /// delivery) without being heard from before another takes it over (`database.lease`).
    public var leaseMilliseconds: Int
    /// Who runs the testing programme, named on the invitation's consent page (`operator.*`).
    public var programmeOperator: ProgrammeOperator
    /// The consent texts a tester reads before she joins (`consent.texts_directory`).
    public var consentTexts: ConsentTextLibrary
    /// Notifications by email (`notifications.*`); off while `notifications.smtp_url` is empty.
    public var mail: MailSettings
    /// The product a report speaks for when its request names none (`report.product_name`; empty: none).
    public var reportProductName: String

    /// Every default that is a setting is the configuration's (`DaemonSettings`), so tests that set a few run on the
    /// rest as vouchd ships them.
    public init(criteria: CriteriaSettings = DaemonConfiguration.defaults.criteriaSettings,
                delivery: DeliveryWorker.Settings = DaemonConfiguration.defaults.deliverySettings,
                rollout: RolloutPlan = DaemonConfiguration.defaults.rolloutPlan, maxTimerSleepMilliseconds: Int = 60_000,
                authFailures: AuthFailureLimiter.Settings = AuthFailureLimiter.Settings(),
                logRequests: Bool = DaemonConfiguration.defaults.boolean("log.requests"),
                cors: CORSPolicy = CORSPolicy(),
                dnsTimeoutMilliseconds: Int = DaemonConfiguration.defaults.seconds("webhooks.dns_timeout") * 1_000,
                eventStreams: EventStreamSettings = EventStreamSettings(),
                workerThreads: Int = DaemonConfiguration.defaults.integer("http.worker_threads"),
                console: ConsoleSettings = ConsoleSettings(),
                leaseMilliseconds: Int = DaemonConfiguration.defaults.seconds("database.lease") * 1_000,
                programmeOperator: ProgrammeOperator = DaemonConfiguration.defaults.programmeOperator,
                consentTexts: ConsentTextLibrary = .standard,
                mail: MailSettings = DaemonConfiguration.defaults.mailSettings,
                reportProductName: String = DaemonConfiguration.defaults.reportProductName) {
        self.mail = mail
        self.reportProductName = reportProductName
        self.consentTexts = consentTexts
        self.programmeOperator = programmeOperator
        self.console = console
        self.leaseMilliseconds = leaseMilliseconds
        self.eventStreams = eventStreams
        self.workerThreads = workerThreads
        self.logRequests = logRequests
        self.cors = cors
        self.dnsTimeoutMilliseconds = dnsTimeoutMilliseconds
        self.authFailures = authFailures
        self.criteria = criteria
        self.delivery = delivery
        self.rollout = rollout
        self.maxTimerSleepMilliseconds = maxTimerSleepMilliseconds
    }
}

extension ApplicationSettings {
    /// The part promotion reads.
    package var promotion: PromotionSettings {
        PromotionSettings(criteria: criteria, maxTimerSleepMilliseconds: maxTimerSleepMilliseconds, leaseMilliseconds: leaseMilliseconds,
                          notifications: NotificationPlanner(enabled: mail.isConfigured, defaultLanguage: console.defaultLanguage))
    }
}
