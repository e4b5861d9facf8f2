import Foundation
import VouchDomain
import VouchStore

extension FixService {
    /// Replaces the fix's criteria overrides (an empty set returns it to the configured defaults).
    ///
    /// Criteria decide when a fix may reach everyone, so only those who decide releases set them: a maintainer who
    /// could lower them would release her own fix alone (docs/lifecycle.md, "Approvals"). The overrides' own bounds
    /// (`approvals_required` at least 1) are checked where they are read.
    /// - Parameter readErrors: what reading the input already found wrong.
    public func setCriteria(of key: String, to overrides: CriteriaOverrides, readErrors: [FieldError] = [], by principal: Principal) throws -> Fix {
        try AccessDenied.unless(principal, may: .decideRelease)
        if !readErrors.isEmpty { throw ValidationFailure(readErrors) }
        let time = clock()
        return try store.updateFix(key, action: .fixCriteria, by: Requester(principal), note: nil) { fix in
            var next = fix
            next.criteria = overrides
            if next != fix { next.updatedAt = time }
            return next
        }.after
    }
}
