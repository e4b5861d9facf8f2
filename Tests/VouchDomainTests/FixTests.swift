import Foundation
import Testing
import VouchDomain

@Suite struct FixTests {
    private let created = Date(timeIntervalSince1970: 1_700_000_000)
    private let later = Date(timeIntervalSince1970: 1_700_000_600)

    private func makeFix(state: FixState = .draft, revision: Int = 1, pausedFrom: FixState? = nil) throws -> Fix {
        Fix(
            key: try FixKey(validating: "tv-channel-selector-labels"), title: "Label channel logos",
            uiArea: "TV channel selector", platforms: [.ios], author: "maintainer-ann", revision: revision,
            state: state, pausedFrom: pausedFrom, createdAt: created, updatedAt: created
        )
    }

    @Test func startMovesDraftToTestingWithoutNewRevision() throws {
        let started = try makeFix().applying(.start, at: later)
        #expect(started.state == .testing)
        #expect(started.revision == 1)
        #expect(started.updatedAt == later)
        #expect(started.createdAt == created)
    }

    @Test(arguments: [FixState.draft, .testing, .promotionFailed, .rolledBack])
    func reviseBumpsRevisionAndKeepsState(state: FixState) throws {
        let revised = try makeFix(state: state, revision: 3).applying(.revise, at: later)
        #expect(revised.revision == 4)
        #expect(revised.state == state)
        #expect(revised.updatedAt == later)
    }

    @Test func startFromRolledBackBumpsRevision() throws {
        let restarted = try makeFix(state: .rolledBack, revision: 2).applying(.start, at: later)
        #expect(restarted.state == .testing)
        #expect(restarted.revision == 3)
    }

    @Test(arguments: [FixState.testing, .promotionFailed, .releasing, .released])
    func pauseRemembersStateAndResumeReturnsThere(origin: FixState) throws {
        let paused = try makeFix(state: origin, revision: 5).applying(.pause, at: later)
        #expect(paused.state == .paused)
        #expect(paused.pausedFrom == origin)
        let resumed = try paused.applying(.resume, at: later.addingTimeInterval(60))
        #expect(resumed.state == origin)
        #expect(resumed.pausedFrom == nil)
        #expect(resumed.revision == 5)
        #expect(resumed.updatedAt == later.addingTimeInterval(60))
    }

    @Test func promotionEventsReachReleased() throws {
        var fix = try makeFix()
        for action in [FixAction.start, .promote, .promotionSucceededPhased, .rolloutCompleted] {
            fix = try fix.applying(action, at: later)
        }
        #expect(fix.state == .released)
        #expect(fix.revision == 1)
    }

    /// docs/decisions.md, "Bucketing flagd agrees with": a rollout under way keeps its bucketing through a pause, and
    /// every rollout that starts, or has ended, is on flagd's.
    @Test func rolloutBucketingIsKeptUntilTheRolloutEnds() throws {
        var legacy = try makeFix(state: .releasing)
        legacy.rolloutPercentage = 10
        legacy.rolloutBucketing = .unleash
        let paused = try legacy.applying(.pause, at: later)
        #expect(paused.rolloutBucketing == .unleash)
        #expect(try paused.applying(.resume, at: later).rolloutBucketing == .unleash)
        #expect(try legacy.applying(.rolloutCompleted, at: later).rolloutBucketing == .flagd)
        var promoting = try makeFix(state: .promoting)
        promoting.rolloutBucketing = .unleash
        #expect(try promoting.applying(.promotionSucceededPhased, at: later).rolloutBucketing == .flagd)
        #expect(try makeFix().rolloutBucketing == .flagd)
    }

    @Test func refusedActionThrowsAndNamesState() throws {
        let fix = try makeFix(state: .abandoned)
        let refusal = try #require(throws: TransitionRefused.self) { try fix.applying(.start, at: later) }
        #expect(refusal.state == .abandoned)
        #expect(refusal.description.contains("state abandoned"))
        #expect(refusal.description.hasSuffix("allowed actions in this state: none"))
    }
}
