import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// What operating vouchd reads from the store: the signing keys every process shares and the counts for
/// `/metrics`, on each database.
struct StoreOperationsTests {
    let time = StoreFixtures.time

    @Test(arguments: StoreBackend.allCases)
    func theFirstCallerMakesAServerKeyAndEveryStoreReadsTheSame(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            let made: [UInt8] = [0, 0, 1, 0, 255] + Array(repeating: 0, count: 27)
            #expect(try first.serverKey(named: "console-cookie") { made } == made)
            #expect(try second.serverKey(named: "console-cookie") { Array(repeating: 7, count: 32) } == made)
            #expect(try first.serverKey(named: "console-cookie") { [] } == made)
            #expect(try second.serverKey(named: "other") { [1, 2, 3] } == [1, 2, 3], "each name has its own key")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func operationalCountsCountFixesFeedbackAndDeliveries(backend: StoreBackend) throws {
        try backend.withStore { store in
            #expect(try store.operationalCounts() == OperationalCounts())
            try StoreFixtures.fixInTesting(store, testers: 2)
            _ = try store.createFix(try StoreFixtures.fix("draft-one"), by: "maria")
            _ = try store.createFix(try StoreFixtures.fix("draft-two"), by: "maria")
            var failed = StoreFixtures.passing("fb_2", by: "t_1")
            failed.verdict = .failed
            _ = try store.submitFeedback([StoreFixtures.passing("fb_1", by: "t_0"), failed], by: "maria", idempotency: nil)
            try store.createEndpoint(StoreFixtures.endpoint("we_a"), by: "admin")
            _ = try store.enqueue([StoreFixtures.event("evt_1")], onlyTo: nil, by: "admin")
            #expect(try store.operationalCounts() == OperationalCounts(fixesByState: ["testing": 1, "draft": 2],
                                                                       feedbackByVerdict: ["passed": 1, "failed": 1],
                                                                       deliveriesByStatus: ["pending": 1]))
        }
    }
}
