import Foundation
import Synchronization
import Testing
import VouchDomain
@testable import VouchStore

/// A submission's records are made inside the write, against the fix as that transaction read it, on each database.
struct StoreFeedbackBuilderTests {
    let key = "tv-channel-selector-labels"

    @Test(arguments: StoreBackend.allCases)
    func theRecordsAreMadeAgainstTheFixTheWriteRead(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            _ = try store.updateFix(key, action: .fixRevise, by: "maria", note: "build 413") { try $0.applying(.revise, at: StoreFixtures.time) }
            let seen = Mutex<[Fix]>([])
            let submission = try store.submitFeedback(to: key, by: "maria", idempotency: nil, { fix in
                seen.withLock { $0.append(fix) }
                var record = StoreFixtures.passing("fb_1", by: "t_0")
                record.revision = fix.revision
                return [record]
            }, emitting: { _, _, _ in [] })
            #expect(seen.withLock { $0.map(\.revision) } == [2])
            #expect(submission.records.map(\.revision) == [2])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func whatTheBuilderRefusesLeavesNothingAndAnUnknownFixIsNotFound(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            let claim = IdempotencyClaim(principal: "tok_app", key: "k1", requestSHA256: Array(repeating: 1, count: 32))
            #expect(throws: ValidationFailure.self) {
                try store.submitFeedback(to: key, by: "maria", idempotency: claim, { _ in
                    throw ValidationFailure([FieldError(field: "verdict", message: "is required")])
                }, emitting: { _, _, _ in [] })
            }
            #expect(try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 10).isEmpty)
            // The claim was not kept: the same key stores the records once they are right.
            let stored = try store.submitFeedback(to: key, by: "maria", idempotency: claim, { _ in [StoreFixtures.passing("fb_2", by: "t_0")] },
                                                  emitting: { _, _, _ in [] })
            #expect(!stored.replayed)
            let built = Mutex(false)
            #expect(throws: StoreError.self) {
                try store.submitFeedback(to: "no-such-fix", by: "maria", idempotency: nil, { _ in
                    built.withLock { $0 = true }
                    return []
                }, emitting: { _, _, _ in [] })
            }
            #expect(!built.withLock { $0 })
        }
    }
}
