/// The outcome of applying an action to a fix: where it goes and what else changes with it.
public struct Transition: Sendable, Equatable {
    public var from: FixState
    public var to: FixState
    /// Set when the action starts a new revision (`revise`, or `start` after a rollback).
    public var bumpsRevision: Bool
    /// The state `resume` must return to; non-nil exactly when `to` is `paused`.
    public var pausedFrom: FixState?

    public init(from: FixState, to: FixState, bumpsRevision: Bool = false, pausedFrom: FixState? = nil) {
        self.from = from
        self.to = to
        self.bumpsRevision = bumpsRevision
        self.pausedFrom = pausedFrom
    }
}

/// A transition the lifecycle table does not allow, worded with the current state and the allowed ones.
public struct TransitionRefused: Error, Sendable, Equatable, CustomStringConvertible {
    public var state: FixState
    public var action: FixAction
    public var allowedActions: [FixAction]

    public init(state: FixState, action: FixAction, allowedActions: [FixAction]) {
        self.state = state
        self.action = action
        self.allowedActions = allowedActions
    }

    public var description: String {
        let allowed = allowedActions.filter(\.isCommand).map(\.rawValue)
        let allowedText = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
        return "cannot \(action.rawValue) a fix in state \(state.rawValue); allowed actions in this state: \(allowedText)"
    }
}
