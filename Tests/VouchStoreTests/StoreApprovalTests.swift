import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Release managers' decisions: one standing vote per principal and revision, on each database.
struct StoreApprovalTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    func approval(_ id: String, by principal: String, _ decision: Approval.Decision = .approve, minutesLater minutes: Double = 0) -> Approval {
        Approval(id: id, fixKey: key, revision: 1, principal: principal, decision: decision, comment: "checked with VoiceOver",
                 evidenceHash: "sha256:abc", recordedAt: time.addingTimeInterval(minutes * 60))
    }

    @Test(arguments: StoreBackend.allCases)
    func approvalsStandOnePerPrincipalAndRevisionUntilReplaced(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 0)
            try store.createEndpoint(StoreFixtures.endpoint("we_ci", events: [.approvalRecorded]), by: "admin")
            let log = PublicationLog(store.changes)
            try store.recordApproval(approval("apr_2", by: "rita", minutesLater: 1), by: "rita", replacing: nil,
                                     emitting: [StoreFixtures.event("evt_apr", .approvalRecorded)])
            try store.recordApproval(approval("apr_1", by: "ken", .reject, minutesLater: 1), by: "rita", replacing: nil, emitting: [])
            #expect(try store.approvals(of: key) == [approval("apr_1", by: "ken", .reject, minutesLater: 1), approval("apr_2", by: "rita", minutesLater: 1)],
                    "ordered by time, then id")
            // The same person under another spelling still has her standing vote.
            #expect(throws: StoreConflict.self) { try store.recordApproval(self.approval("apr_3", by: "Rita"), by: "rita", replacing: nil, emitting: []) }
            #expect(throws: StoreConflict.self, "replacing a vote that is not hers") {
                try store.recordApproval(self.approval("apr_3", by: "rita"), by: "rita", replacing: "apr_1", emitting: [])
            }
            try store.recordApproval(approval("apr_4", by: "rita", .reject, minutesLater: 2), by: "rita", replacing: "apr_2", emitting: [])
            #expect(try store.approvals(of: key).map(\.id) == ["apr_1", "apr_4"])
            #expect(try store.approvals(of: "other-fix").isEmpty)
            #expect(try store.deliveries(ofEvent: "evt_apr").map(\.endpointID) == ["we_ci"])
            #expect(log.all.count == 3, "each recorded decision is published")
            #expect(try store.auditEvents(fix: key, after: nil, limit: 10).map(\.action).suffix(3) == [.approvalApprove, .approvalReject, .approvalReject])
        }
    }
}
