import Foundation

/// One accessibility change in an app, kept behind its own flag.
public struct Fix: Sendable, Equatable {
    public var key: FixKey
    public var title: String
    public var description: String?
    /// The human name of the UI area the fix touches ("TV channel selector"): every area gets a name.
    public var uiArea: String
    public var platforms: [Platform]
    public var wcag: [String]
    /// What a screen reader should say once the fix works ("NHK, button, selected").
    public var expectedAnnouncement: String?
    /// The language tag (`ja`, `en`) the title, UI area and expected announcement are written in, so a page in
    /// another language can mark them with `lang`; nil for a fix made before it was recorded (docs/console.md, "Languages").
    public var language: String?
    /// The principal who created the fix; that principal may not approve it.
    public var author: String
    public var revision: Int
    public var state: FixState
    /// The state `resume` returns to while the fix is paused.
    public var pausedFrom: FixState?
    /// The current step of a phased rollout, as a percentage; nil when the rollout is not phased.
    public var rolloutPercentage: Int?
    /// How the phased rollout buckets keys: flagd's for a rollout that starts now; Unleash's only for one that was in
    /// progress when Vouch moved to flagd's bucketing, until it ends (docs/decisions.md, "Bucketing flagd agrees with").
    public var rolloutBucketing: Bucketing = .flagd
    public var createdAt: Date
    public var updatedAt: Date
    /// When the current revision entered testing, for the soak criterion; nil outside testing.
    public var testingSince: Date?
    /// The fix's own criteria; empty keeps the configured defaults.
    public var criteria: CriteriaOverrides = CriteriaOverrides()
    /// Phased rollout profile; nil releases to everyone at once.
    public var rollout: RolloutPlan?
    /// When a phased rollout takes its next step.
    public var nextRolloutStepAt: Date?
    /// The `fix.promoted` event whose required deliveries decide the promotion.
    public var promotionEventID: String?

    public init(
        key: FixKey, title: String, description: String? = nil, uiArea: String, platforms: [Platform],
        wcag: [String] = [], expectedAnnouncement: String? = nil, language: String? = nil, author: String, revision: Int = 1,
        state: FixState = .draft, pausedFrom: FixState? = nil, rolloutPercentage: Int? = nil,
        createdAt: Date, updatedAt: Date
    ) {
        self.key = key
        self.title = title
        self.description = description
        self.uiArea = uiArea
        self.platforms = platforms
        self.wcag = wcag
        self.expectedAnnouncement = expectedAnnouncement
        self.language = language
        self.author = author
        self.revision = revision
        self.state = state
        self.pausedFrom = pausedFrom
        self.rolloutPercentage = rolloutPercentage
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Applies a lifecycle action, returning the changed fix.
    public func applying(_ action: FixAction, at time: Date) throws(TransitionRefused) -> Fix {
        let transition = try Lifecycle.apply(action, to: state, pausedFrom: pausedFrom)
        var next = self
        next.state = transition.to
        next.pausedFrom = transition.to == .paused ? transition.pausedFrom : nil
        if transition.bumpsRevision { next.revision += 1 }
        // Soak counts time in testing on the current revision: it starts on entering testing and on a new revision.
        if transition.to.isTargetedOnly && (!state.isTargetedOnly && state != .paused || transition.bumpsRevision) {
            next.testingSince = time
        }
        if transition.to == .rolledBack || transition.to == .abandoned || transition.to == .draft {
            next.testingSince = nil
        }
        switch transition.to {
        case .releasing:
            next.rolloutPercentage = rollout?.steps.first ?? 100
            next.nextRolloutStepAt = rollout.map { time.addingTimeInterval(Double($0.intervalSeconds)) }
            // A rollout resumed after a pause keeps its bucketing; one that starts takes flagd's.
            if state != .paused { next.rolloutBucketing = .flagd }
        case .released:
            next.rolloutPercentage = nil
            next.nextRolloutStepAt = nil
            next.rolloutBucketing = .flagd
        case .rolledBack, .abandoned:
            next.rolloutPercentage = nil
            next.nextRolloutStepAt = nil
            next.promotionEventID = nil
            next.rolloutBucketing = .flagd
        default:
            break
        }
        next.updatedAt = time
        return next
    }
}
