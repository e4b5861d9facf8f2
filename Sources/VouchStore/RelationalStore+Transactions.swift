import Foundation
import Synchronization
import VouchDomain

/// The configuration revision as this process's writer last committed it.
///
/// Only written after a COMMIT, under the writer lock, so a transaction that does not bump the revision reports the
/// one in force when it committed without asking SQLite.
final class CommittedRevision: Sendable {
    private let value: Mutex<Int64>

    init(_ revision: Int64) {
        value = Mutex(revision)
    }

    /// Another process committed `revision` and this one has published it.
    func advance(to revision: Int64) {
        value.withLock { $0 = max($0, revision) }
    }

    /// The changes as published: with the transaction's own revision when it bumped one, else the latest committed.
    func commit(_ sealed: SealedChanges) -> CommittedChanges? {
        let revision = value.withLock { current in
            if let bumped = sealed.configuration?.revision { current = max(current, bumped) }
            return current
        }
        guard !sealed.changes.isEmpty else { return nil }
        return CommittedChanges(revision: sealed.configuration?.revision ?? revision,
                                committedAt: sealed.configuration?.committedAt ?? StoreClock.date(StoreClock.nowMilliseconds()),
                                changes: sealed.changes, configuration: sealed.configuration)
    }
}

extension RelationalStore {
    /// Runs `body` in one write transaction made for `requester` and publishes what it recorded once COMMIT
    /// succeeded, before returning. The requester's credential is confirmed first, inside the transaction.
    func write<T: Sendable>(by requester: Requester, _ body: (any SQLConnection, inout TransactionChanges) throws -> T) throws -> T {
        let write = try storage.write({ try RelationalStore.confirmedAndRecorded(by: requester, body, on: $0) }, committed: complete)
        publish(write.committed)
        return write.result
    }

    /// `write` for callers that arrive together (feedback): one COMMIT carries several transactions' savepoints, and
    /// each caller publishes only its own changes, only when its savepoint and the COMMIT both succeeded.
    func groupWrite<T: Sendable>(by requester: Requester, _ body: @escaping (any SQLConnection, inout TransactionChanges) throws -> T) throws -> T {
        let write = try storage.groupWrite(RelationalStore.confirmingAndRecording(by: requester, body), committed: complete)
        publish(write.committed)
        return write.result
    }

    /// `groupWrite` for a caller that does not wait: `completion` gets the result once the shared COMMIT is done and
    /// the changes are published, on the thread that led the commit (`GroupCommit.submit`).
    func groupWrite<T: Sendable>(by requester: Requester, _ body: @escaping (any SQLConnection, inout TransactionChanges) throws -> T,
                                 completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        storage.groupWrite(RelationalStore.confirmingAndRecording(by: requester, body), committed: complete) { [self] outcome in
            completion(outcome.map { write in
                publish(write.committed)
                return write.result
            })
        }
    }

    /// A group commit member's body: the requester's credential confirmed, then `body`, its changes sealed.
    private static func confirmingAndRecording<T>(by requester: Requester, _ body: @escaping (any SQLConnection, inout TransactionChanges) throws -> T)
        -> (any SQLConnection) throws -> PendingWrite<T> {
        { try confirmedAndRecorded(by: requester, body, on: $0) }
    }

    /// The requester's credential confirmed, then `body` run and its changes sealed.
    ///
    /// The confirmation is a deferred check that travels with the body's first read; when the body fails before that
    /// read went out, the check is sent then, so an ended credential is still the refusal the caller hears.
    private static func confirmedAndRecorded<T>(by requester: Requester, _ body: (any SQLConnection, inout TransactionChanges) throws -> T,
                                                on connection: any SQLConnection) throws -> PendingWrite<T> {
        try confirm(requester, on: connection)
        do {
            return try recording(body, on: connection)
        } catch {
            do { try connection.flush() } catch let ended as CredentialEnded { throw ended } catch {}
            throw error
        }
    }

    /// Refuses the write when the requester's token was revoked, or her personal link revoked, expired or deleted
    /// (withdrawal), before this transaction began.
    ///
    /// The reads are deferred checks: they go with the body's first read (on PostgreSQL one round trip for both), and
    /// what the body wrote before a refusal arrives is rolled back with the rest of it.
    ///
    /// Runs inside the write transaction, after its write lock was granted: every revocation, on this vouchd or
    /// another sharing the database, commits under the same lock, so one that committed first is seen here (SQLite
    /// has one writer; PostgreSQL's `READ COMMITTED` gives each statement a snapshot taken after the lock was had).
    /// The token directory in memory follows revocations a moment later, which is enough for reads, not for writes.
    static func confirm(_ requester: Requester, on connection: any SQLConnection) throws {
        switch requester.credential {
        case nil:
            return
        case .token(let id):
            try connection.executeDeferred("SELECT revoked_at_ms FROM tokens WHERE id = ?", [.text(id)]) { rows in
                guard let row = rows.first, row.optionalInt(0) == nil else {
                    throw CredentialEnded("the token was revoked, so the change was not stored", tokenID: id)
                }
            }
        case .link(let link):
            try connection.executeDeferred("SELECT revoked_at_ms, expires_at_ms FROM tester_links WHERE id = ?", [.text(link.id)]) { rows in
                guard let row = rows.first, row.optionalInt(0) == nil, row.int64(1) > StoreClock.nowMilliseconds() else {
                    throw CredentialEnded("the personal link was revoked or has expired, so the change was not stored")
                }
            }
        case .identityProvider(let id):
            // Sign-out, the ID token's expiry or the console's limits end the session, and with it what it may write.
            try connection.executeDeferred("SELECT expires_at_ms FROM console_sessions WHERE token_id = ? AND oidc_principal IS NOT NULL",
                                           [.text(id)]) { rows in
                guard let row = rows.first, row.int64(0) > StoreClock.nowMilliseconds() else {
                    throw CredentialEnded("the console session signed in through the identity provider has ended, so the change was not stored")
                }
            }
        }
    }

    /// Runs one transaction's body inside it and seals what the body recorded.
    private static func recording<T>(_ body: (any SQLConnection, inout TransactionChanges) throws -> T,
                                     on connection: any SQLConnection) throws -> PendingWrite<T> {
        var changes = TransactionChanges()
        let result = try body(connection, &changes)
        return PendingWrite(result: result, sealed: try seal(changes, on: connection))
    }

    private func complete<T>(_ write: PendingWrite<T>) -> PendingWrite<T> {
        var completed = write
        completed.committed = committedRevision.commit(write.sealed)
        return completed
    }

    private func publish(_ committed: CommittedChanges?) {
        if let committed { changes.publish(committed) }
    }

    /// Writes the revision's row when the transaction bumps one, and reads the changed rules with it as their version.
    /// One INSERT; nothing at all for a transaction that changed no flag, token or criteria (feedback).
    static func seal(_ pending: TransactionChanges, on connection: any SQLConnection) throws -> SealedChanges {
        guard pending.bumpsRevision else { return SealedChanges(changes: pending.changes, configuration: nil) }
        let milliseconds = StoreClock.nowMilliseconds()
        let row = try connection.query(
            """
            INSERT INTO configuration_revisions (committed_at_ms, flag_rule_fixes, added_tokens, revoked_tokens, criteria_fixes)
            VALUES (?, ?, ?, ?, ?) RETURNING revision
            """,
            [.integer(milliseconds)] + [pending.flagRuleFixKeys, pending.addedTokenIDs, pending.revokedTokenIDs, pending.criteriaFixKeys]
                .map { .text($0.joined(separator: ",")) })
        guard let revision = row.first?.int64(0) else {
            throw StoreDataError("the configuration revision was not assigned")
        }
        try announce(revision, on: connection)
        let rules = try pending.flagRuleFixKeys.compactMap { key in
            try fix(key, on: connection).map { try rule(for: $0, version: revision, on: connection) }
        }
        return SealedChanges(
            changes: rules.map(StoreChange.flagRule) + pending.changes,
            configuration: ConfigurationChange(revision: revision, committedAt: StoreClock.date(milliseconds), flagRuleFixKeys: pending.flagRuleFixKeys,
                                               addedTokenIDs: pending.addedTokenIDs, revokedTokenIDs: pending.revokedTokenIDs,
                                               criteriaFixKeys: pending.criteriaFixKeys))
    }

    public func configurationRevision() throws -> Int64 {
        try storage.read { try RelationalStore.configurationRevision(on: $0) }
    }

    static func configurationRevision(on connection: any SQLConnection) throws -> Int64 {
        try connection.query("SELECT COALESCE(MAX(revision), 0) FROM configuration_revisions").first?.int64(0) ?? 0
    }

    public func configurationChanges(since revision: Int64) throws -> [ConfigurationChange] {
        try storage.read { try RelationalStore.configurationChanges(since: revision, on: $0) }
    }

    static func configurationChanges(since revision: Int64, on connection: any SQLConnection) throws -> [ConfigurationChange] {
        try connection.query(
            """
            SELECT revision, committed_at_ms, flag_rule_fixes, added_tokens, revoked_tokens, criteria_fixes
            FROM configuration_revisions WHERE revision > ? ORDER BY revision
            """, [.integer(revision)]
        ).map { row in
            func list(_ column: Int) -> [String] { row.string(column).split(separator: ",").map(String.init) }
            return ConfigurationChange(revision: row.int64(0), committedAt: StoreClock.date(row.int64(1)), flagRuleFixKeys: list(2),
                                       addedTokenIDs: list(3), revokedTokenIDs: list(4), criteriaFixKeys: list(5))
        }
    }
}
