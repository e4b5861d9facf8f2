import Foundation
import Testing
import VouchDomain
import VouchIdentity
@testable import VouchStore

/// What several vouchd on one database rely on, each test with two stores on one database standing for two
/// processes (docs/storage.md, "Several vouchd"). On SQLite the same calls run in one process's terms.
struct SharedDatabaseTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    @Test(arguments: StoreBackend.allCases)
    func anotherProcessPublishesWhatThisOneCommitted(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            let log = PublicationLog(second.changes)
            _ = try first.createFix(try StoreFixtures.fix(), by: "maria")
            _ = try first.changeTargets(of: key, adding: ["qa-device"], removing: [], by: "maria", at: time)
            try first.createToken(StoreFixtures.token("tok_a"), principal: (try PrincipalName("ios-app", field: "name"), "name"), by: "admin")
            try first.createToken(StoreFixtures.token("tok_bb"), principal: nil, by: "admin")
            _ = try first.revokeToken("tok_bb", by: "admin", at: time)
            _ = try first.updateFix(key, action: .fixCriteria, by: "rita", note: nil) { fix in
                var next = fix
                next.criteria.minTestersPassed = 3
                return next
            }
            let revision = try first.configurationRevision()
            #expect(log.all.isEmpty, "nothing reaches the other process before it follows")

            #expect(try second.followOtherProcesses(from: 0) == revision)
            #expect(log.all.count == 1, "everything missed arrives as one publication")
            let published = try #require(log.all.first)
            #expect(published.revision == revision)
            let rules = published.changes.compactMap { change -> FlagRule? in
                if case .flagRule(let rule) = change { return rule }
                return nil
            }
            #expect(rules.map(\.key) == [key])
            #expect(rules.first?.targetedKeys == ["qa-device"])
            #expect(rules.first?.version == revision, "the rule is the one of the revision reached, and says so")
            let added = published.changes.compactMap { change -> String? in
                if case .tokenAdded(let token) = change { return token.id }
                return nil
            }
            let revoked = published.changes.compactMap { change -> String? in
                if case .tokenRevoked(let token) = change { return token.revokedAt == nil ? nil : token.id }
                return nil
            }
            #expect(Set(added) == ["tok_a", "tok_bb"])
            #expect(revoked == ["tok_bb"])
            #expect(published.configuration?.criteriaFixKeys == [key])

            // Caught up: nothing more, and the revision stays.
            #expect(try second.followOtherProcesses(from: revision) == revision)
            #expect(log.all.count == 1)
            // A later change arrives on its own.
            _ = try first.updateFix(key, action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
            #expect(try second.followOtherProcesses(from: revision) == revision + 1)
            #expect(log.all.last?.changes.contains { change in
                if case .flagRule(let rule) = change { return rule.state == .testing && rule.version == revision + 1 }
                return false
            } == true)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aClaimedDeliveryIsAnotherProcesssOnlyOnceItsLeaseRunsOut(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            try first.createEndpoint(StoreFixtures.endpoint("we_a"), by: "admin")
            let ids = try first.enqueue([StoreFixtures.event("evt_a")], onlyTo: nil, by: "admin")
            #expect(ids.count == 1)
            let now = time.addingTimeInterval(1)
            let lease = now.addingTimeInterval(30)

            let claimed = try first.claimDeliveries(at: now, by: "node-a", leaseUntil: lease, excluding: [], limit: 10)
            #expect(claimed.map(\.delivery.id) == ids)
            #expect(try second.claimDeliveries(at: now, by: "node-b", leaseUntil: lease, excluding: [], limit: 10).isEmpty,
                    "a delivery leased to one process is not another's")
            #expect(try second.nextDeliveryDue() == lease, "a leased delivery is due again when its lease runs out")

            // node-a is frozen past its lease: node-b takes the delivery over, and node-a's late attempt is not recorded.
            let later = lease.addingTimeInterval(1)
            let takenOver = try second.claimDeliveries(at: later, by: "node-b", leaseUntil: later.addingTimeInterval(30), excluding: [], limit: 10)
            #expect(takenOver.map(\.delivery.id) == ids)
            func attempt(by owner: String) -> DeliveryAttempt {
                DeliveryAttempt(deliveryID: ids[0], number: 1, at: later, statusCode: 200, error: nil, durationMilliseconds: 5, decision: .succeeded,
                                claimedBy: owner)
            }
            #expect { try first.recordAttempt(attempt(by: "node-a")) } throws: { error in
                (error as? LeaseLost)?.cancelled == false
            }
            #expect(try second.recordAttempt(attempt(by: "node-b")).status == .succeeded)
            #expect(throws: LeaseLost.self, "a settled delivery takes no attempt, even from the process that sent it") {
                try second.recordAttempt(attempt(by: "node-b"))
            }
            #expect(try first.deliveries(ofEvent: "evt_a").map(\.attempts) == [1])
            #expect(try first.nextDeliveryDue() == nil)
        }
    }

    /// A webhook deleted while one of its deliveries is being attempted: the attempt coming back says the delivery was
    /// cancelled, which the worker takes as asked for, not as a lease another vouchd took over.
    @Test(arguments: StoreBackend.allCases)
    func anAttemptThatEndsAfterItsWebhookWasDeletedSaysSo(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let store = try open()
            try store.createEndpoint(StoreFixtures.endpoint("we_a"), by: "admin")
            let ids = try store.enqueue([StoreFixtures.event("evt_a")], onlyTo: nil, by: "admin")
            let now = time.addingTimeInterval(1)
            _ = try store.claimDeliveries(at: now, by: "node-a", leaseUntil: now.addingTimeInterval(30), excluding: [], limit: 10)
            try store.deleteEndpoint("we_a", by: "admin", at: now)
            let attempt = DeliveryAttempt(deliveryID: ids[0], number: 1, at: now, statusCode: 200, error: nil, durationMilliseconds: 5,
                                          decision: .succeeded, claimedBy: "node-a")
            #expect { try store.recordAttempt(attempt) } throws: { error in (error as? LeaseLost)?.cancelled == true }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func onlyOneProcessMakesTheFirstToken(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            let admin = { (id: String) in try PrincipalName("admin", field: "name") }
            #expect(try first.createFirstToken(StoreFixtures.token("tok_first", role: .admin), principal: (try admin("a"), "name")))
            #expect(try !second.createFirstToken(StoreFixtures.token("tok_second", role: .admin), principal: (try admin("b"), "name")))
            #expect(try second.tokenCount() == 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aSharedLockIsHeldByOneProcessAtATime(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let first = try open()
            let second = try open()
            let inner = try first.whileHolding(.promotionTimer, lease: .seconds(5)) { stillHeld -> Bool? in
                #expect(stillHeld())
                return try second.whileHolding(.promotionTimer, lease: .seconds(5)) { _ in true }
            }
            switch backend {
            case .sqlite: #expect(inner == .some(.some(true)), "one process owns an SQLite file, and so every lock")
            case .postgres: #expect(inner == .some(.none), "the second process must not get the lock the first holds")
            }
            // Released with the first's transaction: the second gets it now.
            #expect(try second.whileHolding(.promotionTimer, lease: .seconds(5)) { _ in true } == true)
        }
    }
}
