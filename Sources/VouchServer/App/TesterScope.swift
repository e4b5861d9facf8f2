import VouchDomain
import VouchHTTP
import VouchStore

/// What a `tester` token may reach: its own tester record, and the fixes that tester is enrolled in.
struct TesterScope {
    let store: any Store

    /// Throws 403 unless the principal may read everything or is a tester enrolled in `fixKey`.
    func requireFixAccess(_ principal: Principal, fixKey: String) throws {
        guard principal.role == .tester else { return }
        guard let testerID = principal.testerID, try store.enrolledFixes(of: testerID).contains(fixKey) else {
            throw Problem(status: 403, detail: "a tester token may only read the fixes its tester is enrolled in")
        }
    }

    /// Throws 403 unless the principal manages testers or is this tester.
    func requireTesterAccess(_ principal: Principal, testerID: String) throws {
        if principal.allows(.manageTesters) { return }
        guard principal.role == .tester, principal.testerID == testerID else {
            throw Problem(status: 403, detail: "only admin and maintainer tokens, or the tester's own token, may reach tester \(testerID)")
        }
    }
}
