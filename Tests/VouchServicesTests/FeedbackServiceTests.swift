import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

@Suite struct FeedbackServiceTests {
    @Test func aTesterCannotSubmitAsAnotherTester() throws {
        let world = try ServiceWorld()
        let (ana, ben) = (try world.tester("ana"), try world.tester("ben"))
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [ana, ben])
        let error = #expect(throws: AccessDenied.self) {
            try world.services.feedback.submit([ServiceWorld.passingDraft(tester: ben.testerID)], to: ServiceWorld.fixKey, by: ana, channel: .http)
        }
        #expect(error?.description == "a tester token may only submit feedback as its own tester (\(ana.testerID ?? ""))")
        #expect(try world.store.latestFeedback(of: ServiceWorld.fixKey, revision: 1).isEmpty)
    }

    @Test func aTesterLearnsNothingOfAFixSheIsNotEnrolledIn() throws {
        let world = try ServiceWorld()
        let (ana, ben) = (try world.tester("ana"), try world.tester("ben"))
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [ana])
        #expect(throws: AccessDenied.self) {
            try world.services.feedback.submit([ServiceWorld.passingDraft()], to: ServiceWorld.fixKey, by: ben, channel: .http)
        }
        #expect(throws: AccessDenied.self) {
            try world.services.feedback.submit([ServiceWorld.passingDraft()], to: "no-such-fix", by: ben, channel: .http)
        }
    }

    @Test(arguments: [FeedbackChannel.web, .http])
    func theChannelTheCallerNamesIsRecorded(channel: FeedbackChannel) throws {
        let world = try ServiceWorld()
        let ana = try world.tester("ana")
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [ana])
        let submission = try world.services.feedback.submit([ServiceWorld.passingDraft()], to: ServiceWorld.fixKey, by: ana, channel: channel)
        #expect(submission.records.map(\.channel) == [channel])
        #expect(submission.records.map(\.testerID) == [ana.testerID])
        #expect(try world.store.latestFeedback(of: ServiceWorld.fixKey, revision: 1).map(\.channel) == [channel])
    }

    @Test func theSameKeyWithTheSameRequestReplaysAndWithAnotherIsRefused() throws {
        let world = try ServiceWorld()
        let ana = try world.tester("ana")
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [ana])
        let submit = { (request: String) in
            try world.services.feedback.submit([ServiceWorld.passingDraft()], to: ServiceWorld.fixKey, by: ana, channel: .web,
                                               idempotency: FeedbackService.Idempotency(key: "k1", request: Array(request.utf8)))
        }
        let first = try submit("answers")
        let again = try submit("answers")
        #expect(!first.replayed && again.replayed)
        #expect(again.records.map(\.id) == first.records.map(\.id))
        #expect(throws: StoreConflict.self) { try submit("other answers") }
    }

    @Test func everyBadRecordIsReportedByItsNumberedField() throws {
        let world = try ServiceWorld()
        let ana = try world.tester("ana")
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [ana])
        var bad = ServiceWorld.passingDraft()
        bad.verdict = "maybe"
        let failure = #expect(throws: ValidationFailure.self) {
            try world.services.feedback.submit([ServiceWorld.passingDraft(), bad], numbered: true, to: ServiceWorld.fixKey, by: ana, channel: .http)
        }
        #expect(failure?.errors.map(\.field) == ["[1].verdict"])
    }

    @Test func theSummaryNeedsARoleThatReadsEverything() throws {
        let world = try ServiceWorld()
        let rita = try world.staff("rita", .releaseManager)
        #expect(throws: StoreError.self) { try world.services.feedback.summary(of: "no-such-fix", for: rita) }
        let sdk = try world.staff("ios-app", .sdk)
        #expect(throws: AccessDenied.self) { try world.services.feedback.summary(of: ServiceWorld.fixKey, for: sdk) }
    }
}
