import Foundation
import VouchDomain
import VouchStore

/// Which testers a fix is on for while it is in testing.
public struct EnrollmentService: Sendable {
    let store: any EnrollmentStore & TesterStore & FixStore
    let notifications: NotificationPlanner
    let clock: @Sendable () -> Date

    /// The most testers one change may enroll.
    public static let maxTestersPerChange = 500

    public init(store: any EnrollmentStore & TesterStore & FixStore,
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

    /// Enrolls the testers not enrolled yet; those already enrolled stay as they are.
    /// - Parameter testers: nil when the input named none.
    public func enroll(_ testers: [String]?, in key: String, readErrors: [FieldError] = [], by principal: Principal) throws -> EnrollmentChange {
        try AccessDenied.unless(principal, may: .manageTesters)
        var errors = readErrors
        if let testers, testers.isEmpty || testers.count > EnrollmentService.maxTestersPerChange {
            errors.append(FieldError(field: "testers", message: "must list 1 to \(EnrollmentService.maxTestersPerChange) tester ids (t_…)"))
        } else if testers == nil, !errors.contains(where: { $0.field.hasPrefix("testers") }) {
            errors.append(FieldError(field: "testers", message: "is required: the tester ids (t_…) to enroll"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        let time = clock()
        // Read before the write: who has an address, and which revision she is to try. Each newly enrolled tester's
        // mail is queued in the enrollment's own transaction.
        let ids = testers ?? []
        let revision = notifications.enabled ? try store.fix(key)?.revision : nil
        let recipients = revision == nil ? [] : try ids.compactMap { try store.tester($0) }.filter { $0.email != nil }
        let planner = notifications
        return try store.enroll(ids, in: key, by: Requester(principal), at: time) { added in
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
