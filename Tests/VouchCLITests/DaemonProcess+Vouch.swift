import Foundation
import VouchTestSupport

/// Runs the built `vouch` against a daemon the test started.
extension DaemonProcess {
    /// Which token a run sends through VOUCH_TOKEN.
    enum Credential {
        case admin
        case token(String)
        case none
    }

    /// The daemon's own temporary directory, where a test keeps the files it hands to `vouch`.
    var directory: URL {
        guard let temporaryDirectory else { preconditionFailure("a daemon started on a state directory of the test's own has no directory of its own") }
        return temporaryDirectory.url
    }

    /// Runs `vouch` against this daemon through VOUCH_URL, with the admin token unless told otherwise.
    func vouch(_ arguments: String..., as credential: Credential = .admin) throws -> VouchRun {
        try vouch(arguments, as: credential)
    }

    func vouch(_ arguments: [String], as credential: Credential = .admin) throws -> VouchRun {
        try VouchRun.run(arguments, environment: environment(credential))
    }

    /// VOUCH_URL and, for the credential, VOUCH_TOKEN.
    func environment(_ credential: Credential = .admin) -> [String: String] {
        var environment = ["VOUCH_URL": url]
        switch credential {
        case .admin: environment["VOUCH_TOKEN"] = adminToken
        case .token(let token): environment["VOUCH_TOKEN"] = token
        case .none: break
        }
        return environment
    }
}
