import Foundation
import VouchStore

/// A copy of the database written by `vouchd backup`: checked after it is written and before it is restored.
enum BackupFile {
    /// The backup must pass SQLite's integrity check and not come from a newer vouchd; returns its schema version.
    static func verify(_ path: String) throws -> Int {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, readOnly: true)
        } catch {
            throw DaemonError("\(path) is not a database vouchd can read: \(error)")
        }
        let check: String
        let version: Int
        do {
            check = try connection.query("PRAGMA integrity_check").first?.string(0) ?? ""
            version = try connection.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") ?? 0
        } catch {
            throw DaemonError("\(path) is not a vouchd backup: \(error)")
        }
        guard check == "ok" else { throw DaemonError("\(path) failed SQLite's integrity check: \(check)") }
        let known = Migrator(dialect: .sqlite).migrations.last?.version ?? 0
        guard version <= known else {
            throw DaemonError("\(path) was written by a newer vouchd (schema version \(version); this vouchd knows up to \(known))")
        }
        return version
    }
}
