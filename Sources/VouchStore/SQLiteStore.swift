import Foundation
import VouchDomain

/// The `Store` over one SQLite file in the state directory.
public final class SQLiteStore: Store {
    public let database: Database
    /// Every committed write's changes, published before the write returns.
    public let changes = ChangeFeed()
    let committedRevision: CommittedRevision

    /// Opens (creating if needed) and migrates the database at `path`.
    /// - Parameter busyTimeoutMilliseconds: how long a write waits for a lock held elsewhere (`sqlite.busy_timeout`).
    public init(path: String, synchronous: Database.Synchronous = .full, busyTimeoutMilliseconds: Int = 5_000) throws {
        database = try Database(path: path, synchronous: synchronous, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try Migrator().migrate(database)
        committedRevision = CommittedRevision(try database.read { try SQLiteStore.configurationRevision(on: $0) })
        try assignLegacyPrincipals()
    }

    /// Writes one audit event on the writer connection of the current transaction.
    func audit(_ connection: SQLiteConnection, _ event: AuditEvent) throws {
        try connection.query(
            """
            INSERT INTO audit_events (at_ms, principal, action, fix_key, subject, note, before_json, after_json)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.integer(StoreClock.milliseconds(event.at)), .text(event.principal), .text(event.action.rawValue),
             .optional(event.fixKey), .optional(event.subject), .optional(event.note), .optional(event.before), .optional(event.after)])
    }
}
