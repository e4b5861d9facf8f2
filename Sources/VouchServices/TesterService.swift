import Foundation
import VouchCrypto
import VouchDomain
import VouchStore

/// Testers: enrolled with their consent, changed, withdrawn with erasure, and given a copy of what is kept about them.
public struct TesterService: Sendable {
    let store: any TesterStore & EnrollmentStore
    let notifications: NotificationPlanner
    let clock: @Sendable () -> Date

    public init(store: any TesterStore & EnrollmentStore,
                notifications: NotificationPlanner = NotificationPlanner(enabled: false, defaultLanguage: "en"),
                clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.notifications = notifications
        self.clock = clock
    }

    static func makeID() -> String { "t_" + SecureRandom.alphanumeric(count: 12) }

    /// Records a new tester, with the consent her draft carries.
    public func create(_ draft: TesterDraft, readErrors: [FieldError] = [], by principal: Principal) throws -> Tester {
        try AccessDenied.unless(principal, may: .manageTesters)
        let tester = try TesterValidator.makeTester(from: draft, id: TesterService.makeID(), recordedBy: principal.name, at: clock(),
                                                    priorErrors: readErrors + NotificationPlanner.emailErrors(draft.email))
        return try store.createTester(tester, by: Requester(principal))
    }

    public func testers(after id: String?, limit: Int, for principal: Principal) throws -> [Tester] {
        try AccessDenied.unless(principal, may: .manageTesters)
        return try store.testers(after: id, limit: limit)
    }

    /// One tester, for those who manage testers and for herself.
    public func tester(_ id: String, for principal: Principal) throws -> Tester {
        try TesterScope(store: store).requireTesterAccess(principal, testerID: id)
        guard let tester = try store.tester(id) else { throw StoreError.notFound(kind: "tester", id: id) }
        return tester
    }

    /// Changes the fields `draft` sets; a withdrawn tester's data cannot change.
    public func update(_ id: String, with draft: TesterDraft, readErrors: [FieldError] = [], by principal: Principal) throws -> Tester {
        try AccessDenied.unless(principal, may: .manageTesters)
        // Say first that the tester withdrew: no field of theirs can be changed, however well formed.
        if let tester = try store.tester(id), !tester.isActive {
            throw StoreConflict("tester \(id) has withdrawn; their data was erased and cannot be changed")
        }
        if !readErrors.isEmpty { throw ValidationFailure(readErrors) }
        let time = clock()
        let emailErrors = NotificationPlanner.emailErrors(draft.email)
        return try store.updateTester(id, by: Requester(principal)) { tester in
            try TesterValidator.applyPatch(draft, to: tester, recordedBy: principal.name, at: time, priorErrors: emailErrors)
        }.after
    }

    /// Erases the tester's personal data and ends her part in every fix; by those who manage testers or by herself.
    /// - Parameter purgeFeedback: also delete her feedback's verdicts, which otherwise stay unlinked from her.
    public func withdraw(_ id: String, purgeFeedback: Bool, readErrors: [FieldError] = [], by principal: Principal) throws -> Withdrawal {
        try TesterScope(store: store).requireTesterAccess(principal, testerID: id)
        if !readErrors.isEmpty { throw ValidationFailure(readErrors) }
        let time = clock()
        let planner = notifications
        return try store.withdrawTester(id, purgeFeedback: purgeFeedback, by: Requester(principal), at: time) { before in
            planner.withdrawal(of: before, at: time)
        }
    }

    /// Everything kept about the tester (GDPR Art. 15), for those who manage testers or for herself.
    public func export(_ id: String, for principal: Principal) throws -> TesterExport {
        try TesterScope(store: store).requireTesterAccess(principal, testerID: id)
        return try store.exportTester(id)
    }
}
