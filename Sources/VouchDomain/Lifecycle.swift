/// The lifecycle table of docs/lifecycle.md ("Transitions"), the only place that decides which transitions exist.
public enum Lifecycle {
    /// Applies `action` to a fix in `state`.
    /// - Parameter pausedFrom: the state a paused fix was paused from, needed by `resume`.
    public static func apply(_ action: FixAction, to state: FixState, pausedFrom: FixState? = nil) throws(TransitionRefused) -> Transition {
        guard let transition = transition(action, from: state, pausedFrom: pausedFrom) else {
            throw TransitionRefused(state: state, action: action, allowedActions: allowedActions(from: state, pausedFrom: pausedFrom))
        }
        return transition
    }

    /// The actions the table allows from `state`, commands first, in a stable order.
    public static func allowedActions(from state: FixState, pausedFrom: FixState? = nil) -> [FixAction] {
        FixAction.allCases.filter { transition($0, from: state, pausedFrom: pausedFrom) != nil }
    }

    private static func transition(_ action: FixAction, from state: FixState, pausedFrom: FixState?) -> Transition? {
        switch (state, action) {
        case (.draft, .start): return Transition(from: state, to: .testing)
        case (.rolledBack, .start): return Transition(from: state, to: .testing, bumpsRevision: true)
        case (.draft, .revise), (.testing, .revise), (.promotionFailed, .revise), (.rolledBack, .revise):
            return Transition(from: state, to: state, bumpsRevision: true)
        case (.draft, .abandon), (.testing, .abandon): return Transition(from: state, to: .abandoned)
        case (.testing, .promote), (.promotionFailed, .retryPromotion): return Transition(from: state, to: .promoting)
        case (.testing, .pause), (.promotionFailed, .pause), (.releasing, .pause), (.released, .pause):
            return Transition(from: state, to: .paused, pausedFrom: state)
        case (.paused, .resume):
            guard let pausedFrom else { return nil }
            return Transition(from: state, to: pausedFrom)
        case (.promotionFailed, .rollback), (.released, .rollback): return Transition(from: state, to: .rolledBack)
        case (.promoting, .promotionSucceeded): return Transition(from: state, to: .released)
        case (.promoting, .promotionSucceededPhased): return Transition(from: state, to: .releasing)
        case (.promoting, .promotionFailed): return Transition(from: state, to: .promotionFailed)
        case (.releasing, .rolloutCompleted): return Transition(from: state, to: .released)
        default: return nil
        }
    }
}
