import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Who is enrolled in which fix, on each database.
struct StoreEnrollmentTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    @Test(arguments: StoreBackend.allCases)
    func enrollingTwiceCountsOnceAndUnenrollingRemoves(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            for id in ["t_b", "t_a"] { _ = try store.createTester(StoreFixtures.tester(id, keys: []), by: "maria") }
            let first = try store.enroll(["t_b", "t_a", "t_b"], in: key, by: "maria", at: time)
            #expect(first.added == ["t_b", "t_a"])
            #expect(first.enrollments == [Enrollment(testerID: "t_a", enrolledBy: "maria", enrolledAt: time),
                                          Enrollment(testerID: "t_b", enrolledBy: "maria", enrolledAt: time)])
            let revision = try store.configurationRevision()
            let again = try store.enroll(["t_a"], in: key, by: "rita", at: time.addingTimeInterval(5))
            #expect(again.added.isEmpty)
            #expect(again.enrollments.first?.enrolledBy == "maria", "the first enrollment stands")
            #expect(try store.configurationRevision() == revision, "nothing changed, so no new revision")
            #expect(try store.enrolledFixes(of: "t_a") == [key])

            let removed = try store.unenroll(["t_a", "t_nobody"], from: key, by: "maria", at: time)
            #expect(removed.removed == ["t_a"])
            #expect(try store.enrollments(of: key).map(\.testerID) == ["t_b"])
            #expect(try store.unenroll(["t_a"], from: key, by: "maria", at: time).removed.isEmpty)
            #expect(try store.enrolledFixes(of: "t_a").isEmpty)
            let actions = try store.auditEvents(fix: key, after: nil, limit: 10).map(\.action)
            #expect(actions == [.fixCreate, .fixEnroll, .fixUnenroll])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func enrollingUnknownOrWithdrawnTestersIsRefusedByField(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            for id in ["t_a", "t_gone"] { _ = try store.createTester(StoreFixtures.tester(id, keys: []), by: "maria") }
            _ = try store.withdrawTester("t_gone", purgeFeedback: true, by: "maria", at: time)
            #expect(throws: ValidationFailure([FieldError(field: "testers[1]", message: "no tester 't_nobody'"),
                                               FieldError(field: "testers[2]", message: "tester 't_gone' has withdrawn and cannot be enrolled")])) {
                try store.enroll(["t_a", "t_nobody", "t_gone"], in: self.key, by: "maria", at: self.time)
            }
            #expect(try store.enrollments(of: key).isEmpty, "one refused tester refuses the whole enrollment")
            #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) { try store.enroll(["t_a"], in: "nope", by: "maria", at: self.time) }
            #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) { try store.enrollments(of: "nope") }
        }
    }
}
