import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Webhook endpoints, the outbox and the delivery bookkeeping, on each database.
struct StoreWebhookTests {
    let time = StoreFixtures.time

    func attempt(_ deliveryID: String, _ decision: DeliveryDecision, number: Int = 1, status: Int? = 500) -> DeliveryAttempt {
        DeliveryAttempt(deliveryID: deliveryID, number: number, at: time.addingTimeInterval(Double(number)), statusCode: status, error: nil,
                        durationMilliseconds: 12, decision: decision)
    }

    @Test(arguments: StoreBackend.allCases)
    func endpointsAreCreatedListedInByteOrderUpdatedAndDeleted(backend: StoreBackend) throws {
        try backend.withStore { store in
            for id in ["we_a-fix", "we__z", "we_B"] { try store.createEndpoint(StoreFixtures.endpoint(id, events: [.fixCreated, .fixPromoted]), by: "admin") }
            #expect(try store.endpoint("we__z") == StoreFixtures.endpoint("we__z", events: [.fixCreated, .fixPromoted]))
            #expect(try store.endpoints(after: nil, limit: 2).map(\.id) == ["we_B", "we__z"])
            #expect(try store.endpoints(after: "we__z", limit: 2).map(\.id) == ["we_a-fix"])

            let updated = try store.updateEndpoint("we_B", by: "admin") { endpoint in
                var next = endpoint
                next.events = []
                next.required = false
                next.updatedAt = self.time.addingTimeInterval(60)
                return next
            }
            #expect(try store.endpoint("we_B") == updated)
            #expect(throws: StoreError.notFound(kind: "webhook", id: "we_nope")) { try store.updateEndpoint("we_nope", by: "admin") { $0 } }

            try store.deleteEndpoint("we__z", by: "admin", at: time)
            #expect(try store.endpoint("we__z") == nil)
            #expect(try store.endpoints(after: nil, limit: 10).map(\.id) == ["we_B", "we_a-fix"])
            #expect(throws: StoreError.notFound(kind: "webhook", id: "we__z")) { try store.deleteEndpoint("we__z", by: "admin", at: self.time) }
            let actions = try store.auditEvents(fix: nil, after: nil, limit: 10).map(\.action)
            #expect(actions == [.webhookCreate, .webhookCreate, .webhookCreate, .webhookUpdate, .webhookDelete])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func eventsGoToSubscribedEnabledEndpointsAndTheClaimCarriesTheBodyBytes(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createEndpoint(StoreFixtures.endpoint("we_all"), by: "admin")
            try store.createEndpoint(StoreFixtures.endpoint("we_promoted", events: [.fixPromoted]), by: "admin")
            try store.createEndpoint(StoreFixtures.endpoint("we_off"), by: "admin")
            _ = try store.updateEndpoint("we_off", by: "admin") { endpoint in
                var next = endpoint
                next.enabled = false
                return next
            }
            let body: [UInt8] = [0x00, 0x7B, 0x00, 0xFF, 0xFE, 0x00]
            let ids = try store.enqueue([StoreFixtures.event("evt_created", body: body)], onlyTo: nil, by: "admin")
            #expect(ids == ["dlv_created_all"])
            // A test event sent to one endpoint reaches it whatever it subscribed to.
            #expect(try store.enqueue([StoreFixtures.event("evt_test", .webhookTest)], onlyTo: "we_promoted", by: "admin") == ["dlv_test_promoted"])
            #expect(try store.enqueue([], onlyTo: nil, by: "admin").isEmpty)

            let now = time.addingTimeInterval(1)
            let jobs = try store.claimDeliveries(at: now, by: "node", leaseUntil: now.addingTimeInterval(30), excluding: ["dlv_test_promoted"], limit: 10)
            #expect(jobs.map(\.delivery.id) == ["dlv_created_all"])
            #expect(jobs.first?.body == body)
            #expect(jobs.first?.url == "https://hooks.example.com/we_all")
            #expect(try store.claimDeliveries(at: time.addingTimeInterval(-1), by: "node", leaseUntil: now, excluding: [], limit: 10).isEmpty,
                    "nothing is due before its time")
            #expect(try store.claimDeliveries(at: now, by: "node", leaseUntil: now.addingTimeInterval(30), excluding: [], limit: 1).count == 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func attemptsRetrySucceedDieOrDisableTheEndpoint(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createEndpoint(StoreFixtures.endpoint("we_a"), by: "admin")
            try store.createEndpoint(StoreFixtures.endpoint("we_gone"), by: "admin")
            _ = try store.enqueue((1...3).map { StoreFixtures.event("evt_\($0)", at: time.addingTimeInterval(Double($0))) }, onlyTo: nil, by: "admin")
            let retryAt = time.addingTimeInterval(600)

            let retried = try store.recordAttempt(attempt("dlv_1_a", .retry(at: retryAt)))
            #expect(retried.status == .pending && retried.attempts == 1 && retried.nextAttemptAt == retryAt && retried.lastStatusCode == 500)
            let succeeded = try store.recordAttempt(attempt("dlv_1_a", .succeeded, number: 2, status: 204))
            #expect(succeeded.status == .succeeded && succeeded.attempts == 2 && succeeded.nextAttemptAt == nil)
            let dead = try store.recordAttempt(attempt("dlv_2_a", .dead(reason: "8 attempts failed")))
            #expect(dead.status == .dead && dead.lastError == "8 attempts failed")

            let disabled = try store.recordAttempt(attempt("dlv_1_gone", .disableEndpoint(reason: "410 Gone"), status: 410))
            #expect(disabled.status == .dead)
            #expect(try store.endpoint("we_gone")?.enabled == false)
            #expect(try store.endpoint("we_gone")?.disabledReason == "410 Gone")
            #expect(try store.deliveries(endpoint: "we_gone", status: nil, after: nil, limit: 10).map(\.status) == [.dead, .cancelled, .cancelled])
            #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).last?.action == .webhookDisable)
            #expect(throws: StoreError.notFound(kind: "delivery", id: "dlv_nope")) { try store.recordAttempt(self.attempt("dlv_nope", .succeeded)) }

            #expect(try store.deliveries(endpoint: "we_a", status: .pending, after: nil, limit: 10).map(\.id) == ["dlv_3_a"])
            let page = try store.deliveries(endpoint: nil, status: nil, after: nil, limit: 4)
            #expect(page.map(\.id) == ["dlv_1_a", "dlv_1_gone", "dlv_2_a", "dlv_2_gone"])
            #expect(try store.deliveries(endpoint: nil, status: nil, after: "dlv_2_gone", limit: 4).map(\.id) == ["dlv_3_a", "dlv_3_gone"])
            #expect(try store.deliveries(ofEvent: "evt_2").map(\.id).sorted() == ["dlv_2_a", "dlv_2_gone"])
            #expect(try store.deliveries(ofEvent: "evt_2").allSatisfy { $0.eventType == .fixCreated })
            #expect(try store.operationalCounts().deliveriesByStatus == ["succeeded": 1, "dead": 2, "pending": 1, "cancelled": 2])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func redeliveryPutsADeadDeliveryBackWithFreshAttempts(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createEndpoint(StoreFixtures.endpoint("we_a"), by: "admin")
            _ = try store.enqueue([StoreFixtures.event("evt_1"), StoreFixtures.event("evt_2")], onlyTo: nil, by: "admin")
            _ = try store.recordAttempt(attempt("dlv_1_a", .dead(reason: "refused")))
            let later = time.addingTimeInterval(3_600)
            let again = try store.redeliver("dlv_1_a", by: "admin", at: later)
            #expect(again.status == .pending && again.attempts == 0 && again.nextAttemptAt == later)
            #expect(throws: StoreConflict.self, "a pending delivery is not redelivered") { try store.redeliver("dlv_2_a", by: "admin", at: later) }
            #expect(throws: StoreError.notFound(kind: "delivery", id: "dlv_nope")) { try store.redeliver("dlv_nope", by: "admin", at: later) }
            _ = try store.recordAttempt(attempt("dlv_1_a", .disableEndpoint(reason: "410 Gone")))
            #expect(throws: StoreConflict.self, "not to a disabled endpoint") { try store.redeliver("dlv_1_a", by: "admin", at: later) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theNextDeliveryDueIsTheEarliestPendingOne(backend: StoreBackend) throws {
        try backend.withStore { store in
            #expect(try store.nextDeliveryDue() == nil)
            try store.createEndpoint(StoreFixtures.endpoint("we_a"), by: "admin")
            _ = try store.enqueue([StoreFixtures.event("evt_late", at: time.addingTimeInterval(50)), StoreFixtures.event("evt_early", at: time)], onlyTo: nil, by: "admin")
            #expect(try store.nextDeliveryDue() == time)
            _ = try store.recordAttempt(attempt("dlv_early_a", .retry(at: time.addingTimeInterval(90))))
            #expect(try store.nextDeliveryDue() == time.addingTimeInterval(50))
            _ = try store.recordAttempt(attempt("dlv_late_a", .succeeded))
            #expect(try store.nextDeliveryDue() == time.addingTimeInterval(90))
        }
    }
}
