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
    /// The principal who created the fix; that principal may not approve it.
    public var author: String
    public var revision: Int
    public var state: FixState
    /// The state `resume` returns to while the fix is paused.
    public var pausedFrom: FixState?
    /// The current step of a phased rollout, as a percentage; nil when the rollout is not phased.
    public var rolloutPercentage: Int?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        key: FixKey, title: String, description: String? = nil, uiArea: String, platforms: [Platform],
        wcag: [String] = [], expectedAnnouncement: String? = nil, author: String, revision: Int = 1,
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
        next.updatedAt = time
        return next
    }
}
