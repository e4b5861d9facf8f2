import Foundation
import VouchDomain
import VouchStore

/// Which testers a fix is on for while it is in testing.
public struct EnrollmentService: Sendable {
    let store: any EnrollmentStore & TesterStore & FixStore & PanelStore
    let notifications: NotificationPlanner
    let clock: @Sendable () -> Date

    /// The most testers one change may enroll.
    public static let maxTestersPerChange = TesterList.maxCount
    /// The most panels one change may enroll.
    public static let maxPanelsPerChange = 50

    public init(store: any EnrollmentStore & TesterStore & FixStore & PanelStore,
                notifications: NotificationPlanner = NotificationPlanner(enabled: false, defaultLanguage: "en"),
                clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.notifications = notifications
        self.clock = clock
    }

    public func enrollments(of key: String, for principal: Principal) throws -> [Enrollment] {
        try AccessDenied.unless(principal, may: .readAll)
        return try store.enrollments(of: key)
    }

    /// Enrolls the testers, and the members of the panels who have not withdrawn, those not enrolled yet; those already
    /// enrolled stay as they are.
    /// - Parameters:
    ///   - testers: nil when the input named none.
    ///   - panels: nil when the input named none; then `testers` are required.
    public func enroll(_ testers: [String]?, panels: [String]? = nil, in key: String, readErrors: [FieldError] = [],
                       by principal: Principal) throws -> EnrollmentChange {
        try AccessDenied.unless(principal, may: .manageTesters)
        var errors = readErrors + TesterList.errors(testers, purpose: "enroll (or panels: the panel ids, p_…)", optional: panels != nil || readErrors.contains { $0.field.hasPrefix("panels") },
                                                          readErrors: readErrors)
        if let panels, panels.isEmpty || panels.count > EnrollmentService.maxPanelsPerChange {
            errors.append(FieldError(field: "panels", message: "must list 1 to \(EnrollmentService.maxPanelsPerChange) panel ids (p_…)"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        let time = clock()
        // Read before the write: who has an address (named testers and the panels' members), and which revision she is
        // to try. Each newly enrolled tester's mail is queued in the enrollment's own transaction.
        let ids = testers ?? []
        let panelIDs = panels ?? []
        let revision = notifications.enabled ? try store.fix(key)?.revision : nil
        var candidates = ids
        if revision != nil {
            for panel in panelIDs { candidates += try store.panel(panel)?.members.map(\.testerID) ?? [] }
        }
        let recipients = revision == nil ? [] : try Set(candidates).sorted().compactMap { try store.tester($0) }.filter { $0.email != nil }
        let planner = notifications
        return try store.enroll(ids, panels: panelIDs, in: key, by: Requester(principal), at: time) { added in
            guard let revision else { return [] }
            let newlyAdded = Set(added)
            return planner.enrolled(recipients.filter { newlyAdded.contains($0.id) }, in: key, revision: revision, at: time)
        }
    }

    /// Ends one tester's part in the fix; her feedback stays.
    public func unenroll(_ tester: String, from key: String, by principal: Principal) throws -> EnrollmentChange {
        try AccessDenied.unless(principal, may: .manageTesters)
        let change = try store.unenroll([tester], from: key, by: Requester(principal), at: clock())
        guard !change.removed.isEmpty else { throw NotFound("tester \(tester) is not enrolled in fix \(key)") }
        return change
    }
}
