import Foundation
import VouchDomain
import VouchStore

/// Which testers a fix is on for while it is in testing.
public struct EnrollmentService: Sendable {
    let store: any EnrollmentStore
    let clock: @Sendable () -> Date

    /// The most testers one change may enroll.
    public static let maxTestersPerChange = 500

    public init(store: any EnrollmentStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
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
        return try store.enroll(testers ?? [], in: key, by: Requester(principal), at: clock())
    }

    /// Ends one tester's part in the fix; her feedback stays.
    public func unenroll(_ tester: String, from key: String, by principal: Principal) throws -> EnrollmentChange {
        try AccessDenied.unless(principal, may: .manageTesters)
        let change = try store.unenroll([tester], from: key, by: Requester(principal), at: clock())
        guard !change.removed.isEmpty else { throw NotFound("tester \(tester) is not enrolled in fix \(key)") }
        return change
    }
}
