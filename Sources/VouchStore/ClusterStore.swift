/// What each committed write changed, and how processes sharing one database follow each other's changes.
///
/// A lone `vouchd` on an SQLite file is a cluster of one: it publishes its own writes and has nobody to follow.
public protocol ClusterStore: Sendable {
    /// What each committed write changed, for the parts of the process that keep copies of stored state.
    var changes: ChangeFeed { get }
    /// The configuration revision: bumped by every transaction that changes a flag rule, a token or a fix's criteria.
    func configurationRevision() throws -> Int64
    /// What each revision after `revision` changed, oldest first: how another process catches up from a revision.
    func configurationChanges(since revision: Int64) throws -> [ConfigurationChange]
    /// Whether other vouchd share the database (PostgreSQL); they then follow each other's changes.
    var isShared: Bool { get }
    /// Publishes on `changes` what other processes changed of flags, tokens and criteria after `revision`.
    /// - Returns: the revision now reached.
    func followOtherProcesses(from revision: Int64) throws -> Int64
    /// Returns when another process announces a configuration change, or once `timeout` has passed.
    func waitForAnnouncement(timeout: Duration) throws
    /// Runs `body` while this process holds `lock` among all sharing the database; nil when another holds it.
    func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (_ stillHeld: () -> Bool) throws -> T) throws -> T?
}
