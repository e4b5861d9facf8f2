import Foundation
import VouchDomain

/// What several `vouchd` sharing one database need from the store (docs/storage.md, "Several vouchd").
extension RelationalStore {
    public var isShared: Bool { storage.isShared }

    public func waitForAnnouncement(timeout: Duration) throws {
        try storage.waitForAnnouncement(timeout: timeout)
    }

    public func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (_ stillHeld: () -> Bool) throws -> T) throws -> T? {
        try storage.whileHolding(lock, lease: lease, body)
    }

    /// Publishes on `changes` what every revision after `revision` changed of flags, tokens and criteria, as this
    /// process's own writes publish theirs, and returns the revision reached. All of it is read in one transaction,
    /// so the rules it publishes are those of the revision it reports, never older.
    ///
    /// Rules carry that revision as their version, so a subscriber that already has a newer one keeps it, and a
    /// revision this process wrote itself is published again without harm.
    public func followOtherProcesses(from revision: Int64) throws -> Int64 {
        let committed: CommittedChanges? = try storage.read { connection in
            let missed = try RelationalStore.configurationChanges(since: revision, on: connection)
            guard let last = missed.last else { return nil }
            func union(_ lists: (ConfigurationChange) -> [String]) -> [String] {
                var seen = Set<String>()
                return missed.flatMap(lists).filter { seen.insert($0).inserted }
            }
            let merged = ConfigurationChange(revision: last.revision, committedAt: last.committedAt, flagRuleFixKeys: union(\.flagRuleFixKeys),
                                             addedTokenIDs: union(\.addedTokenIDs), revokedTokenIDs: union(\.revokedTokenIDs),
                                             criteriaFixKeys: union(\.criteriaFixKeys))
            var changes: [StoreChange] = try merged.flagRuleFixKeys.compactMap { key in
                try RelationalStore.fix(key, on: connection).map { .flagRule(try RelationalStore.rule(for: $0, version: last.revision, on: connection)) }
            }
            for id in merged.addedTokenIDs {
                if let token = try RelationalStore.token(id, on: connection) { changes.append(.tokenAdded(token)) }
            }
            for id in merged.revokedTokenIDs {
                if let token = try RelationalStore.token(id, on: connection) { changes.append(.tokenRevoked(token)) }
            }
            changes += merged.criteriaFixKeys.map { .criteriaChanged(fixKey: $0) }
            return CommittedChanges(revision: last.revision, committedAt: last.committedAt, changes: changes, configuration: merged)
        }
        guard let committed else { return revision }
        committedRevision.advance(to: committed.revision)
        self.changes.publish(committed)
        return committed.revision
    }

    /// Inside a transaction that bumped the revision: wakes the other processes once it commits (a NOTIFY is
    /// delivered only then). SQLite has nobody to wake.
    static func announce(_ revision: Int64, on connection: any SQLConnection) throws {
        guard connection.dialect == .postgres else { return }
        try PostgresNotificationListener.notify(channel: ConfigurationAnnouncement.channel, payload: String(revision), on: connection)
    }
}
