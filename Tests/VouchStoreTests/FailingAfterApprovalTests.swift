import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// The criteria report reads, per approval, the first failing record at or after it (docs/storage.md, "The failing
/// record after an approval"): every approval stands or is voided, by the same record, as when every failing record
/// of the revision was read.
@Suite struct FailingAfterApprovalTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    @Test(arguments: StoreBackend.allCases)
    func eachApprovalIsVoidedByTheSameRecordAsWhenAllWereRead(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 3)
            // Failing and passing records at uneven times, two in the same minute, submitted out of time order.
            let records: [(String, Bool, Double)] = [("fb_a", true, 5), ("fb_b", false, 6), ("fb_c", true, 20), ("fb_d", true, 20),
                                                     ("fb_e", false, 31), ("fb_f", true, 12), ("fb_g", true, 44)]
            for (number, (id, failed, minutes)) in records.enumerated() {
                _ = try store.submitFeedback([StoreFixtures.recorded(id, by: "t_\(number % 3)", failed: failed, minutesLater: minutes)], by: "maria", idempotency: nil)
            }
            // Approvals before, between, at and after the failing records.
            let minutes: [Double] = [0, 5, 7, 12, 13, 20, 21, 44, 50]
            for (number, minute) in minutes.enumerated() {
                try store.recordApproval(Approval(id: "apr_\(number)", fixKey: key, revision: 1, principal: "rm\(number)", decision: .approve,
                                                  comment: nil, evidenceHash: "h", recordedAt: time.addingTimeInterval(minute * 60)),
                                         by: "admin", replacing: nil, emitting: [])
            }
            let fix = try #require(try store.fix(key))
            let records2 = try store.criteriaRecords(of: fix)
            // Every failing record of the revision, in time order, as the report read them before.
            let everyFailing = try store.feedback(of: key, tester: nil, revision: 1, after: nil, limit: 100)
                .map(\.feedback).filter { $0.verdict == .failed }
                .sorted { $0.recordedAt < $1.recordedAt }
                .map { (id: $0.id, recordedAt: $0.recordedAt) }
            func input(failing: [(id: String, recordedAt: Date)]) -> CriteriaEvaluator.Input {
                CriteriaEvaluator.Input(fix: fix, settings: CriteriaSettings(), latest: records2.latest, failing: failing, testingSince: fix.testingSince,
                                        approvals: records2.approvals, now: time.addingTimeInterval(3_600), authors: records2.authors)
            }
            let read = input(failing: records2.failing)
            let all = input(failing: everyFailing)
            #expect(records2.failing.count < everyFailing.count)
            for approval in records2.approvals {
                #expect(CriteriaEvaluator.standing(of: approval, input: read) == CriteriaEvaluator.standing(of: approval, input: all), "\(approval.id)")
            }
            let voidedBy = records2.approvals.map { approval -> String in
                if case .voidedByFailingFeedback(let id) = CriteriaEvaluator.standing(of: approval, input: read) { return id }
                return "-"
            }
            #expect(records2.approvals.map(\.id) == (0..<9).map { "apr_\($0)" })
            #expect(voidedBy == ["fb_a", "fb_a", "fb_f", "fb_f", "fb_c", "fb_c", "fb_g", "fb_g", "-"])
        }
    }

    /// The read is a seek through `feedback_failing_by_time` (migration 0023), not a walk of the revision's records.
    @Test func sqliteSeeksTheFailingIndexByTime() throws {
        try StoreBackend.sqlite.withStore { store in
            let plan = try store.storage.read { connection in
                try connection.query("EXPLAIN QUERY PLAN " + RelationalStore.firstFailingSQL, [.text(key), .int(1), .integer(0)]).map { $0.string(3) }
            }
            #expect(plan.contains { $0.contains("USING INDEX feedback_failing_by_time") || $0.contains("USING COVERING INDEX feedback_failing_by_time") },
                    "plan: \(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
        }
    }
}
