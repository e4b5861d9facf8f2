import Foundation
import Testing
import VouchDomain
import VouchIdentity
@testable import VouchStore

/// The audit log read through a filter, on each database: each field narrows, together they all apply, and a time
/// range is from its start, inclusive, to its end, exclusive.
struct StoreAuditFilterTests {
    let time = StoreFixtures.time

    @Test(arguments: StoreBackend.allCases)
    func eachFieldNarrowsTheLog(backend: StoreBackend) throws {
        try backend.withStore { store in
            for id in ["tok_1", "tok_2"] {
                try store.createToken(StoreFixtures.token(id), principal: (try PrincipalName("ios-app", field: "name"), "name"), by: "admin")
            }
            let later = time.addingTimeInterval(3_600)
            _ = try store.revokeToken("tok_2", by: "rita", at: later)
            let all = try store.auditEvents(matching: AuditFilter(), after: nil, limit: 10)
            #expect(all.map(\.action) == [.tokenCreate, .tokenCreate, .tokenRevoke])
            #expect(try store.auditEvents(matching: AuditFilter(action: .tokenRevoke), after: nil, limit: 10).map(\.principal) == ["rita"])
            #expect(try store.auditEvents(matching: AuditFilter(principal: "admin"), after: nil, limit: 10).count == 2)
            #expect(try store.auditEvents(matching: AuditFilter(action: .tokenRevoke, principal: "admin"), after: nil, limit: 10).isEmpty)
            #expect(try store.auditEvents(matching: AuditFilter(since: later), after: nil, limit: 10).map(\.action) == [.tokenRevoke], "from, inclusive")
            #expect(try store.auditEvents(matching: AuditFilter(until: later), after: nil, limit: 10).count == 2, "until, exclusive")
            #expect(try store.auditEvents(matching: AuditFilter(fix: "no-such-fix"), after: nil, limit: 10).isEmpty)
            let first = try #require(all.first)
            #expect(try store.auditEvents(matching: AuditFilter(principal: "admin"), after: first.id, limit: 10).count == 1, "paged after an event")
        }
    }
}
