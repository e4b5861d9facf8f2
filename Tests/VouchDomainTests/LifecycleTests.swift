import Testing
import VouchDomain

/// docs/lifecycle.md "Transitions", copied by hand so that the test does not trust the table it checks.
private struct Expected {
    var to: FixState
    var bumpsRevision = false
}

/// The state a paused fix came from in the all-pairs test; resume must return there.
private let pausedFromInTable = FixState.releasing

private let lifecycleTable: [FixState: [FixAction: Expected]] = [
    .draft: [
        .start: Expected(to: .testing),
        .revise: Expected(to: .draft, bumpsRevision: true),
        .abandon: Expected(to: .abandoned),
    ],
    .testing: [
        .promote: Expected(to: .promoting),
        .pause: Expected(to: .paused),
        .abandon: Expected(to: .abandoned),
        .revise: Expected(to: .testing, bumpsRevision: true),
    ],
    .promoting: [
        .promotionSucceeded: Expected(to: .released),
        .promotionSucceededPhased: Expected(to: .releasing),
        .promotionFailed: Expected(to: .promotionFailed),
    ],
    .promotionFailed: [
        .retryPromotion: Expected(to: .promoting),
        .rollback: Expected(to: .rolledBack),
        .pause: Expected(to: .paused),
        .revise: Expected(to: .promotionFailed, bumpsRevision: true),
    ],
    .releasing: [
        .rolloutCompleted: Expected(to: .released),
        .pause: Expected(to: .paused),
    ],
    .released: [
        .rollback: Expected(to: .rolledBack),
        .pause: Expected(to: .paused),
    ],
    .paused: [
        .resume: Expected(to: pausedFromInTable),
    ],
    .rolledBack: [
        .start: Expected(to: .testing, bumpsRevision: true),
        .revise: Expected(to: .rolledBack, bumpsRevision: true),
    ],
    .abandoned: [:],
]

/// The actions listed after "allowed actions in this state: " in a refusal.
private func listedActions(in description: String) -> Set<String> {
    guard let range = description.range(of: "allowed actions in this state: ") else { return [] }
    return Set(description[range.upperBound...].components(separatedBy: ", "))
}

@Suite struct LifecycleTests {
    @Test func tableCoversEveryState() {
        #expect(Set(lifecycleTable.keys) == Set(FixState.allCases))
    }

    @Test(arguments: FixState.allCases, FixAction.allCases)
    func everyStateAndAction(state: FixState, action: FixAction) throws {
        let pausedFrom: FixState? = state == .paused ? pausedFromInTable : nil
        let allowedHere = try #require(lifecycleTable[state])
        if let expected = allowedHere[action] {
            let transition = try Lifecycle.apply(action, to: state, pausedFrom: pausedFrom)
            #expect(transition.from == state)
            #expect(transition.to == expected.to)
            #expect(transition.bumpsRevision == expected.bumpsRevision)
            #expect(transition.pausedFrom == (expected.to == .paused ? state : nil))
        } else {
            let refusal = try #require(throws: TransitionRefused.self) {
                try Lifecycle.apply(action, to: state, pausedFrom: pausedFrom)
            }
            #expect(refusal.state == state)
            #expect(refusal.action == action)
            #expect(Set(refusal.allowedActions) == Set(allowedHere.keys))
            let commands = allowedHere.keys.filter(\.isCommand).map(\.rawValue)
            #expect(refusal.description.contains("cannot \(action.rawValue) a fix in state \(state.rawValue)"))
            #expect(listedActions(in: refusal.description) == (commands.isEmpty ? ["none"] : Set(commands)))
        }
    }

    @Test(arguments: FixState.allCases)
    func allowedActionsMatchTable(state: FixState) throws {
        let pausedFrom: FixState? = state == .paused ? pausedFromInTable : nil
        let expected = try #require(lifecycleTable[state])
        #expect(Set(Lifecycle.allowedActions(from: state, pausedFrom: pausedFrom)) == Set(expected.keys))
    }

    @Test func refusalWordingForDraft() throws {
        let refusal = try #require(throws: TransitionRefused.self) { try Lifecycle.apply(.promote, to: .draft) }
        #expect(refusal.description == "cannot promote a fix in state draft; allowed actions in this state: start, revise, abandon")
    }

    @Test func refusalListsOnlyCommandsNotDaemonEvents() throws {
        let refusal = try #require(throws: TransitionRefused.self) { try Lifecycle.apply(.pause, to: .promoting) }
        #expect(refusal.description == "cannot pause a fix in state promoting; allowed actions in this state: none")
        #expect(!refusal.description.contains("promotion-succeeded"))
    }

    @Test func abandonedAllowsNothing() {
        #expect(Lifecycle.allowedActions(from: .abandoned).isEmpty)
    }

    @Test(arguments: [FixState.testing, .promotionFailed, .releasing, .released])
    func resumeReturnsToPausedFrom(origin: FixState) throws {
        let pause = try Lifecycle.apply(.pause, to: origin)
        #expect(pause.to == .paused)
        #expect(pause.pausedFrom == origin)
        let resume = try Lifecycle.apply(.resume, to: .paused, pausedFrom: pause.pausedFrom)
        #expect(resume.to == origin)
        #expect(resume.pausedFrom == nil)
        #expect(!resume.bumpsRevision)
    }

    @Test func resumeWithoutPausedFromIsRefused() throws {
        let refusal = try #require(throws: TransitionRefused.self) { try Lifecycle.apply(.resume, to: .paused, pausedFrom: nil) }
        #expect(refusal.state == .paused)
        #expect(refusal.description.contains("state paused"))
    }

    @Test func pauseWhilePausedIsRefused() throws {
        let refusal = try #require(throws: TransitionRefused.self) { try Lifecycle.apply(.pause, to: .paused, pausedFrom: .testing) }
        #expect(listedActions(in: refusal.description) == ["resume"])
    }
}
