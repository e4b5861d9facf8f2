import Foundation
import VouchDomain
import VouchStore

/// Which testers a fix is on for while it is in testing.
public struct EnrollmentService: Sendable {
    let store: any EnrollmentStore
    let clock: @Sendable () -> Date

    /// The most testers one change may enroll.
    public static let maxTestersPerChange = TesterList.maxCount
    /// The most panels one change may enroll.
    public static let maxPanelsPerChange = 50

    public init(store: any EnrollmentStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
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
        return try store.enroll(testers ?? [], panels: panels ?? [], in: key, by: Requester(principal), at: clock())
    }

    /// Ends one tester's part in the fix; her feedback stays.
    public func unenroll(_ tester: String, from key: String, by principal: Principal) throws -> EnrollmentChange {
        try AccessDenied.unless(principal, may: .manageTesters)
        let change = try store.unenroll([tester], from: key, by: Requester(principal), at: clock())
        guard !change.removed.isEmpty else { throw NotFound("tester \(tester) is not enrolled in fix \(key)") }
        return change
    }
}
