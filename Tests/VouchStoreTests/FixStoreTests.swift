import Foundation
import Synchronization
import Testing
import VouchDomain
@testable import VouchStore

/// `createFix(_:by:)` and `updateFix(_:action:by:note:_:)` are written against `FixStore` alone: they put no event in
/// the outbox, whichever store stands behind the protocol, an in-memory one or the real store on either database.
struct FixStoreTests {
    static let key = "tv-channel-selector-labels"

    /// Fixes in a dictionary, remembering every event a write was asked to emit.
    final class InMemoryFixStore: FixStore {
        private let state = Mutex<(fixes: [String: Fix], emitted: [WebhookEvent])>(([:], []))

        var emitted: [WebhookEvent] { state.withLock { $0.emitted } }

        func createFix(_ fix: Fix, by principal: Requester, emitting events: [WebhookEvent]) throws -> Fix {
            try state.withLock { state in
                guard state.fixes[fix.key.rawValue] == nil else { throw StoreError.alreadyExists(kind: "fix", id: fix.key.rawValue) }
                state.fixes[fix.key.rawValue] = fix
                state.emitted += events
                return fix
            }
        }

        func fix(_ key: String) throws -> Fix? {
            state.withLock { $0.fixes[key] }
        }

        func fixes(state wanted: FixState?, after key: String?, limit: Int) throws -> [Fix] {
            let all = state.withLock { $0.fixes.values }
            return Array(all.filter { (wanted == nil || $0.state == wanted) && $0.key.rawValue > (key ?? "") }
                .sorted { $0.key < $1.key }.prefix(limit))
        }

        func fixes(in states: [FixState]) throws -> [Fix] {
            state.withLock { $0.fixes.values.filter { states.contains($0.state) } }
        }

        /// Keeps no outbox of mail, so it has no recipients to offer `notifying`, which is never called.
        func updateFix(_ key: String, action: AuditAction, by principal: Requester, note: String?, emitting: (Fix, Fix) -> [WebhookEvent],
                       notifying: (Fix, Fix, NotificationRecipients) throws -> [MailNotification],
                       _ change: (Fix) throws -> Fix) throws -> FixChange {
            try state.withLock { state in
                guard let before = state.fixes[key] else { throw StoreError.notFound(kind: "fix", id: key) }
                let after = try change(before)
                state.fixes[key] = after
                state.emitted += emitting(before, after)
                return FixChange(before: before, after: after)
            }
        }

        func flagRules() throws -> [FlagRule] { [] }
    }

    /// What a caller that needs only fixes does: create one and start its testing, through the short forms.
    static func createAndStartTesting(on store: any FixStore) throws -> FixChange {
        _ = try store.createFix(try StoreFixtures.fix(key), by: "maria")
        return try store.updateFix(key, action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: StoreFixtures.time) }
    }

    @Test func theShortFormsEmitNothingOnAStoreOfFixesAlone() throws {
        let store = InMemoryFixStore()
        let change = try Self.createAndStartTesting(on: store)
        #expect(change.after.state == .testing)
        #expect(try store.fixes(in: [.testing]).map(\.key.rawValue) == [Self.key])
        #expect(store.emitted.isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func theShortFormsEmitNothingOnTheRealStore(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createEndpoint(StoreFixtures.endpoint("we_all"), by: "admin")
            let change = try Self.createAndStartTesting(on: store)
            #expect(change.after.state == .testing)
            #expect(try store.fixes(in: [.testing]).map(\.key.rawValue) == [Self.key])
            #expect(try store.deliveries(endpoint: "we_all", status: nil, after: nil, limit: 10).isEmpty)
        }
    }
}
