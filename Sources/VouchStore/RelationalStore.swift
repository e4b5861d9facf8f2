import Foundation
import VouchDomain

/// The `Store` over an SQL database: one SQLite file in the state directory, or PostgreSQL shared by several
/// `vouchd`. The statements are the same for both; `SQLDatabase` and `SQLConnection` hold what differs.
public final class RelationalStore: Store {
    /// The database itself, whose calls throw its dialect's errors: for tools that work below the store (a backup).
    public let database: any SQLDatabase
    /// The database as the store's own methods use it, so they throw `StoreUnavailable` for a busy or lost database.
    let storage: StoreDatabase
    /// Every committed write's changes, published before the write returns.
    public let changes = ChangeFeed()
    let committedRevision: CommittedRevision

    /// Opens (creating if needed) and migrates the database at `path`.
    /// - Parameter busyTimeoutMilliseconds: how long a write waits for a lock held elsewhere (`sqlite.busy_timeout`).
    public convenience init(path: String, synchronous: SQLiteDatabase.Synchronous = .full, busyTimeoutMilliseconds: Int = 5_000) throws {
        let database = try StoreUnavailable.reporting {
            try SQLiteDatabase(path: path, synchronous: synchronous, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        try self.init(database: database)
    }

    /// Migrates `database` (under its migration lock) and opens the store over it.
    public init(database: any SQLDatabase) throws {
        self.database = database
        let storage = StoreDatabase(database)
        self.storage = storage
        try Migrator(dialect: storage.dialect).migrate(storage)
        committedRevision = CommittedRevision(try storage.read { try RelationalStore.configurationRevision(on: $0) })
        try assignLegacyPrincipals()
        if !storage.isShared {
            // One process owns an SQLite file: leases of an earlier run (which ended mid-attempt) are its own, and void.
            try storage.write { connection in
                try connection.query("UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at_ms = NULL WHERE lease_owner IS NOT NULL")
                try connection.query("UPDATE notifications SET lease_owner = NULL, lease_expires_at_ms = NULL WHERE lease_owner IS NOT NULL")
            }
        }
    }

    /// Writes one audit event on the writer connection of the current transaction.
    /// - Parameter deferred: sent with the next statement whose answer is needed (`SQLConnection.executeDeferred`).
    func audit(_ connection: any SQLConnection, _ event: AuditEvent, deferred: Bool = false) throws {
        let run: (String, [SQLValue]) throws -> Void = deferred ? { try connection.executeDeferred($0, $1) } : { _ = try connection.query($0, $1) }
        try run(
            """
            INSERT INTO audit_events (at_ms, principal, action, fix_key, subject, note, before_json, after_json, via)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.integer(StoreClock.milliseconds(event.at)), .text(event.principal), .text(event.action.rawValue),
             .optional(event.fixKey), .optional(event.subject), .optional(event.note), .optional(event.before), .optional(event.after),
             .optional(event.via)])
    }
}
