import Foundation
import VouchDomain
import VouchJSON

extension RelationalStore {
    public func targets(of key: String) throws -> [String] {
        try storage.read { connection in
            guard try connection.scalar("SELECT 1 FROM fixes WHERE key = ?", [.text(key)]) != nil else {
                throw StoreError.notFound(kind: "fix", id: key)
            }
            return try connection.query("SELECT targeting_key FROM fix_targets WHERE fix_key = ? ORDER BY targeting_key", [.text(key)])
                .map { $0.string(0) }
        }
    }

    public func changeTargets(of key: String, adding: [String], removing: [String], by principal: Requester, at time: Date) throws -> TargetChange {
        try write(by: principal) { connection, changes in
            guard try connection.scalar("SELECT 1 FROM fixes WHERE key = ?", [.text(key)]) != nil else { throw StoreError.notFound(kind: "fix", id: key) }
            var added: [String] = []
            var removed: [String] = []
            for targetingKey in adding {
                try connection.query(
                    "INSERT INTO fix_targets (fix_key, targeting_key, added_by, added_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    [.text(key), .text(targetingKey), .text(principal.name), .integer(StoreClock.milliseconds(time))])
                if connection.changes > 0 { added.append(targetingKey) }
            }
            for targetingKey in removing {
                try connection.query("DELETE FROM fix_targets WHERE fix_key = ? AND targeting_key = ?", [.text(key), .text(targetingKey)])
                if connection.changes > 0 { removed.append(targetingKey) }
            }
            let targets = try connection.query("SELECT targeting_key FROM fix_targets WHERE fix_key = ? ORDER BY targeting_key", [.text(key)])
                .map { $0.string(0) }
            if !added.isEmpty || !removed.isEmpty {
                // Targeting keys are app user ids, not testers' identities, so the audit keeps them for accountability.
                try audit(connection, AuditEvent(
                    at: time, by: principal, action: .fixTargets, fixKey: key,
                    before: nil, after: JSONWriter.string(.object(["added": .strings(added), "removed": .strings(removed)]))))
                changes.flagRuleChanged(key)
            }
            return TargetChange(targets: targets, added: added, removed: removed)
        }
    }
}
