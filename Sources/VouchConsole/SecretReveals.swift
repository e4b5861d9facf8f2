import Foundation
import Synchronization
import VouchCrypto
import VouchStore

/// Secrets a form has just made (a token, a webhook's signing secret, a personal link, an invitation's address),
/// held for the one page the form's redirect leads to (docs/console.md, "Secrets shown once").
///
/// The form answers with 303 See Other, so reloading the page that shows the secret repeats a GET, never the POST
/// that made it; the GET takes the secret out, so a reload shows it no more. Each is bound to the session that made
/// it and to the page's address, and lives a short while in this process's memory only: the store keeps hashes.
final class SecretReveals: Sendable {
    /// Long enough for the redirect, short enough that a secret nobody fetched does not linger.
    static let lifetimeSeconds: Double = 120
    /// A bound on what unfetched secrets can hold, whatever a client does.
    static let capacity = 1_000

    private struct Kept {
        let values: [String: String]
        let until: Date
    }

    private let kept = Mutex<[String: Kept]>([:])

    /// Holds `values` for `session`'s next GET of `path`.
    func keep(_ values: [String: String], for session: ConsoleSession, at path: String, now: Date) {
        kept.withLock { kept in
            kept = kept.filter { $0.value.until > now }
            if kept.count >= SecretReveals.capacity, let oldest = kept.min(by: { $0.value.until < $1.value.until })?.key { kept[oldest] = nil }
            kept[SecretReveals.key(session, path)] = Kept(values: values, until: now.addingTimeInterval(SecretReveals.lifetimeSeconds))
        }
    }

    /// What was kept for `session` at `path`, once: nil when it was fetched already, has expired, or was never kept.
    func take(for session: ConsoleSession, at path: String, now: Date) -> [String: String]? {
        kept.withLock { kept in
            guard let found = kept.removeValue(forKey: SecretReveals.key(session, path)), found.until > now else { return nil }
            return found.values
        }
    }

    private static func key(_ session: ConsoleSession, _ path: String) -> String {
        Digest.hex(session.idSHA256) + " " + path
    }
}
