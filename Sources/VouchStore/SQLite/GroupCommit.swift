import Synchronization

/// One caller's work waiting to be committed together with others'.
///
/// `@unchecked Sendable`: `run` and `result` are only touched while holding `Database`'s writer mutex:
/// the leader runs the job under it, and the caller reads the result after taking it itself.
final class GroupCommitJob: @unchecked Sendable {
    private let body: (SQLiteConnection) throws -> any Sendable
    private let afterCommit: (any Sendable) -> any Sendable
    private var outcome: Result<any Sendable, any Error>?

    init(_ body: @escaping (SQLiteConnection) throws -> any Sendable, committed: @escaping (any Sendable) -> any Sendable) {
        self.body = body
        self.afterCommit = committed
    }

    var isDone: Bool { outcome != nil }

    /// The error the job ended with; nil while it has not run or when it succeeded.
    var failure: (any Error)? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    func run(on connection: SQLiteConnection) {
        outcome = Result { try body(connection) }
    }

    func fail(_ error: any Error) {
        outcome = .failure(error)
    }

    /// After the shared COMMIT: lets a member that succeeded complete its result.
    func commit() {
        if case .success(let value) = outcome { outcome = .success(afterCommit(value)) }
    }

    func result() throws -> any Sendable {
        guard let outcome else { throw SQLiteError(code: 1, message: "group commit job was never run", sql: nil) }
        return try outcome.get()
    }
}

extension Database {
    /// Runs `body` in a transaction shared with other callers waiting at the same moment: one fsync for many writes.
    ///
    /// Each body runs inside its own savepoint, so one body's error rolls back only its own changes; the caller sees
    /// its own result or error. If the shared COMMIT fails, every body in the group fails with that error.
    /// - Parameter committed: runs for each member that succeeded, in order, once the shared COMMIT succeeded and
    ///   still under the writer lock; it may complete the member's result.
    public func groupWrite<T: Sendable>(_ body: @escaping (SQLiteConnection) throws -> T,
                                        committed: @escaping (T) -> T = { $0 }) throws -> T {
        let job = GroupCommitJob({ try body($0) }, committed: { value in
            // The job only ever holds what its own body returned.
            guard let result = value as? T else { return value }
            return committed(result)
        })
        pendingJobs.withLock { $0.append(job) }
        try withWriter { connection in
            // Another caller's commit may already have carried this job.
            if job.isDone { return }
            let batch = pendingJobs.withLock { jobs in
                let taken = jobs
                jobs.removeAll()
                return taken
            }
            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                batch.forEach { $0.fail(error) }
                return
            }
            for member in batch {
                do {
                    try connection.execute("SAVEPOINT group_member")
                    member.run(on: connection)
                    if member.failure != nil, connection.isInTransaction {
                        try connection.execute("ROLLBACK TO group_member")
                    }
                    if connection.isInTransaction { try connection.execute("RELEASE group_member") }
                } catch {
                    member.fail(error)
                }
                // On SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY or SQLITE_NOMEM "it might be necessary for SQLite to rollback and cancel
                // the entire transaction": then the members before this one are undone too, and none of the batch may report success.
                if !connection.isInTransaction {
                    let error = member.failure ?? SQLiteError(code: 1, message: "the group commit's transaction ended early", sql: nil)
                    batch.filter { $0.failure == nil }.forEach { $0.fail(error) }
                    return
                }
            }
            do {
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                batch.forEach { $0.fail(error) }
                return
            }
            batch.forEach { $0.commit() }
        }
        guard let result = try job.result() as? T else { throw SQLiteError(code: 1, message: "group commit result of the wrong type", sql: nil) }
        return result
    }
}
