import Foundation
import Synchronization
import Testing
import VouchDomain
@testable import VouchStore

/// Testers' feedback: what is taken and when, the latest per tester, paging, idempotency and the group commit,
/// on each database.
struct StoreFeedbackTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    func failing(_ id: String, by tester: String, minutesLater minutes: Double) -> Feedback {
        StoreFixtures.recorded(id, by: tester, failed: true, minutesLater: minutes)
    }

    @Test(arguments: StoreBackend.allCases)
    func everyFieldOfASubmissionReadsBackExactly(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            let full = Feedback(id: "fb_full", fixKey: key, revision: 1, testerID: "t_0", platform: .web, osVersion: "macOS 15.1", device: "MacBook",
                                appBuild: "web-2026.11", assistiveTech: .nvda, atVersion: "2024.4", browser: .firefox, browserVersion: "133",
                                verdict: .cantTell, taskOutcome: .completedWithWorkaround, severity: .moderate, nameAnnounced: .yes, roleAnnounced: .no,
                                stateAnnounced: .notApplicable, focusOrder: .yes, heard: "NHK, button", regression: true, wcag: ["1.1.1", "2.4.3"],
                                comment: "Line one\nline two", channel: .web, recordedBy: "t_0", recordedAt: time)
            let minimal = StoreFixtures.passing("fb_min", by: "t_0")
            let submission = try store.submitFeedback([full, minimal], by: "maria", idempotency: nil)
            #expect(!submission.replayed)
            let stored = try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 10)
            #expect(stored.map(\.feedback) == [full, minimal])
            #expect(stored[0].seq < stored[1].seq)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func latestPerTesterEvidenceAndFailingFeedback(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 2)
            _ = try store.submitFeedback([failing("fb_1", by: "t_0", minutesLater: 1)], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_2", by: "t_1")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([StoreFixtures.passing("fb_3", by: "t_0")], by: "maria", idempotency: nil)
            _ = try store.submitFeedback([failing("fb_4", by: "t_1", minutesLater: 4)], by: "maria", idempotency: nil)
            #expect(try store.latestFeedback(of: key, revision: 1).map(\.id) == ["fb_3", "fb_4"])
            let evidence = try store.feedbackEvidence(of: key, revision: 1)
            #expect(evidence.latest.map(\.id) == ["fb_3", "fb_4"])
            #expect(evidence.recordCount == 4)
            let fix = try #require(try store.fix(key))
            // Without an approval no failing record is read; with one between the two, the one after it.
            #expect(try store.criteriaRecords(of: fix).failing.isEmpty)
            try store.recordApproval(Approval(id: "apr_1", fixKey: key, revision: 1, principal: "rita", decision: .approve, comment: nil,
                                              evidenceHash: "h", recordedAt: time.addingTimeInterval(120)),
                                     by: "rita", replacing: nil, emitting: [])
            let failingNow = try store.criteriaRecords(of: fix).failing
            #expect(failingNow.map(\.id) == ["fb_4"])
            #expect(failingNow.map(\.recordedAt) == [time.addingTimeInterval(240)])
            #expect(try store.feedbackEvidence(of: key, revision: 2).recordCount == 0)
            #expect(try store.latestFeedback(of: "no-such-fix", revision: 1).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func feedbackPagesBySeqAndFiltersByTesterAndRevision(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 2)
            for index in 0..<5 { _ = try store.submitFeedback([StoreFixtures.passing("fb_\(index)", by: "t_\(index % 2)")], by: "maria", idempotency: nil) }
            _ = try store.updateFix(key, action: .fixRevise, by: "maria", note: nil) { try $0.applying(.revise, at: self.time) }
            _ = try store.submitFeedback([{ var next = StoreFixtures.passing("fb_r2", by: "t_1"); next.revision = 2; return next }()], by: "maria", idempotency: nil)
            let all = try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 100)
            #expect(all.map(\.feedback.id) == ["fb_0", "fb_1", "fb_2", "fb_3", "fb_4", "fb_r2"])
            let page = try store.feedback(of: key, tester: nil, revision: nil, after: all[1].seq, limit: 2)
            #expect(page.map(\.feedback.id) == ["fb_2", "fb_3"])
            #expect(try store.feedback(of: key, tester: "t_1", revision: nil, after: nil, limit: 100).map(\.feedback.id) == ["fb_1", "fb_3", "fb_r2"])
            #expect(try store.feedback(of: key, tester: "t_1", revision: 1, after: nil, limit: 100).map(\.feedback.id) == ["fb_1", "fb_3"])
            #expect(try store.feedback(of: key, tester: nil, revision: 2, after: nil, limit: 100).map(\.feedback.id) == ["fb_r2"])
            #expect(try store.feedback(of: key, tester: nil, revision: nil, after: Int64.max, limit: 100).isEmpty)
            #expect(try store.feedback(of: key, tester: nil, revision: nil, after: Int64.min, limit: Int.max).count == 6)
            #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) {
                try store.feedback(of: "nope", tester: nil, revision: nil, after: nil, limit: 10)
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anIdempotencyClaimAnswersTheSameSubmissionAgain(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            let fingerprint: [UInt8] = [0, 1, 0, 2] + Array(repeating: 0, count: 28)
            let claim = IdempotencyClaim(principal: "tok_app", key: "retry-1", requestSHA256: fingerprint)
            let first = try store.submitFeedback([StoreFixtures.passing("fb_1", by: "t_0")], by: "maria", idempotency: claim)
            let again = try store.submitFeedback([StoreFixtures.passing("fb_other", by: "t_0")], by: "maria", idempotency: claim)
            #expect(again.replayed)
            #expect(again.records == first.records)
            #expect(try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 10).map(\.feedback.id) == ["fb_1"])
            let otherRequest = IdempotencyClaim(principal: "tok_app", key: "retry-1", requestSHA256: Array(repeating: 0, count: 32))
            #expect(throws: StoreConflict.self) { try store.submitFeedback([StoreFixtures.passing("fb_3", by: "t_0")], by: "maria", idempotency: otherRequest) }
            // The key belongs to its principal: another principal's same key is a new submission.
            let otherPrincipal = IdempotencyClaim(principal: "tok_web", key: "retry-1", requestSHA256: fingerprint)
            #expect(try !store.submitFeedback([StoreFixtures.passing("fb_4", by: "t_0")], by: "maria", idempotency: otherPrincipal).replayed)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func feedbackIsRefusedUnlessTheFixTakesItAndTheTesterIsEnrolled(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            _ = try store.createTester(StoreFixtures.tester("t_stranger", keys: []), by: "maria")
            _ = try store.createFix(try StoreFixtures.fix("draft-fix"), by: "maria")
            _ = try store.enroll(["t_0"], in: "draft-fix", by: "maria", at: time)
            #expect(throws: StoreConflict.self, "not enrolled") {
                try store.submitFeedback([StoreFixtures.passing("fb_a", by: "t_stranger")], by: "maria", idempotency: nil)
            }
            #expect(throws: StoreConflict.self, "a draft takes no feedback") {
                try store.submitFeedback([StoreFixtures.passing("fb_b", by: "t_0", on: "draft-fix")], by: "maria", idempotency: nil)
            }
            #expect(throws: ValidationFailure([FieldError(field: "tester", message: "no tester 't_nobody'")])) {
                try store.submitFeedback([StoreFixtures.passing("fb_c", by: "t_nobody")], by: "maria", idempotency: nil)
            }
            var stale = StoreFixtures.passing("fb_d", by: "t_0")
            stale.revision = 2
            #expect(throws: StoreConflict.self, "another revision") { try store.submitFeedback([stale], by: "maria", idempotency: nil) }
            #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) {
                try store.submitFeedback([StoreFixtures.passing("fb_e", by: "t_0", on: "nope")], by: "maria", idempotency: nil)
            }
            // A refused record refuses its whole submission.
            #expect(throws: StoreConflict.self) {
                try store.submitFeedback([StoreFixtures.passing("fb_f", by: "t_0"), StoreFixtures.passing("fb_g", by: "t_stranger")], by: "maria", idempotency: nil)
            }
            #expect(try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 10).isEmpty)
            #expect(try store.operationalCounts().feedbackByVerdict.isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func sixteenSubmittersAtOnceAreAllStoredAndEachPublishedOnce(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 16)
            let log = PublicationLog(store.changes)
            let failures = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 16) { index in
                do {
                    _ = try store.submitFeedback([StoreFixtures.passing("fb_\(index)", by: "t_\(index)")], by: "maria", idempotency: nil)
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
            #expect(failures.load(ordering: .relaxed) == 0)
            let expected = (0..<16).map { "fb_\($0)" }.sorted()
            #expect(try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 100).map(\.feedback.id).sorted() == expected)
            #expect(log.feedbackIDs.sorted() == expected)
            #expect(try store.latestFeedback(of: key, revision: 1).count == 16)
        }
    }
}
