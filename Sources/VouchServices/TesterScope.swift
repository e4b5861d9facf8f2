import VouchDomain
import VouchStore

/// What a `tester` principal may reach: its own tester record, and the fixes that tester is enrolled in.
struct TesterScope {
    let store: any EnrollmentStore

    /// Refuses a tester not enrolled in `fixKey`; every other role may read every fix.
    func requireFixAccess(_ principal: Principal, fixKey: String) throws {
        guard principal.role == .tester else { return }
        guard let testerID = principal.testerID, try store.enrolledFixes(of: testerID).contains(fixKey) else {
            throw AccessDenied("a tester token may only read the fixes its tester is enrolled in")
        }
    }

    /// Refuses everyone but those who manage testers and this tester.
    func requireTesterAccess(_ principal: Principal, testerID: String) throws {
        if principal.allows(.manageTesters) { return }
        guard principal.role == .tester, principal.testerID == testerID else {
            throw AccessDenied("only admin and maintainer tokens, or the tester's own token, may reach tester \(testerID)")
        }
    }
}
