import Dispatch
import Synchronization

/// One caller's work waiting to be committed together with others', and how its caller hears of the outcome.
///
/// `@unchecked Sendable`: the outcome is written only by the leader, while it holds its database's writer or right
/// after the shared COMMIT, and read only by the leader when it hands the outcome to `completion`, on the same thread.
final class GroupCommitJob: @unchecked Sendable {
    private let body: (any SQLConnection) throws -> any Sendable
    private let afterCommit: (any Sendable) -> any Sendable
    private var outcome: Result<any Sendable, any Error>?
    /// Told the outcome once, by the leader, after the shared COMMIT and outside the writer.
    private let completion: @Sendable (Result<any Sendable, any Error>) -> Void

    init(_ body: @escaping (any SQLConnection) throws -> any Sendable, committed: @escaping (any Sendable) -> any Sendable,
         completion: @escaping @Sendable (Result<any Sendable, any Error>) -> Void) {
        self.body = body
        self.afterCommit = committed
        self.completion = completion
    }

    /// The error the job ended with; nil while it has not run or when it succeeded.
    var failure: (any Error)? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    func run(on connection: any SQLConnection) {
        outcome = Result { try body(connection) }
    }

    func fail(_ error: any Error) {
        outcome = .failure(error)
    }

    /// Fails the job unless it already has an outcome: for a leader that could not finish the batch it took.
    func failIfUnfinished(_ error: any Error) {
        if outcome == nil { outcome = .failure(error) }
    }

    /// After the shared COMMIT: lets a member that succeeded complete its result.
    func commit() {
        if case .success(let value) = outcome { outcome = .success(afterCommit(value)) }
    }

    /// Hands the final outcome to the caller's completion.
    func finish() {
        completion(outcome ?? .failure(GroupCommitFailure("the group commit job was never run")))
    }
}

/// Commits several callers' write transactions together: one COMMIT, so one fsync, for many writes.
///
/// A caller either waits for its result (`write`) or hands over a completion and goes on (`submit`). Whoever finds
/// nobody leading leads: it takes every queued job, runs them in one transaction, commits, and tells each caller its
/// outcome. A leader that submitted goes on leading while jobs are queued, so under load one thread commits batch
/// after batch while the others go on taking requests, and no thread sleeps for a commit it does not lead
/// (docs/architecture.md, "Writes and group commit").
final class GroupCommit: Sendable {
    private let pendingJobs = Mutex(GroupCommitQueue())

    /// How many callers wait for the next commit (for tests that line callers up).
    var queuedJobs: Int { pendingJobs.withLock { $0.jobs.count } }

    /// Runs `body` in a transaction shared with other callers waiting at the same moment, and returns its result.
    ///
    /// Each body runs inside its own savepoint, so one body's error rolls back only its own changes; the caller sees
    /// its own result or error. If the shared COMMIT fails, every body in the group fails with that error.
    /// - Parameter committed: runs for each member that succeeded, in order, once the shared COMMIT succeeded and
    ///   still under the writer lock; it may complete the member's result.
    func write<T: Sendable>(on database: any SQLDatabase, _ body: @escaping (any SQLConnection) throws -> T,
                            committed: @escaping (T) -> T) throws -> T {
        let outcome = GroupCommitOutcome<T>()
        enqueue(GroupCommitJob.typed(body, committed: committed) { outcome.set($0) }, on: database, leadsUntilEmpty: false)
        return try outcome.wait()
    }

    /// `write` for a caller that does not wait: `completion` gets the result or the error, on the thread that led the
    /// commit, once the shared COMMIT is done (or failed), outside the writer. It may be this thread, before `submit`
    /// returns. A completion must not wait for another group commit of the same database.
    func submit<T: Sendable>(on database: any SQLDatabase, _ body: @escaping (any SQLConnection) throws -> T,
                             committed: @escaping (T) -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        enqueue(GroupCommitJob.typed(body, committed: committed, completion: completion), on: database, leadsUntilEmpty: true)
    }

    /// Queues the job and leads when nobody does.
    /// - Parameter leadsUntilEmpty: whether this thread may go on leading after its own job's batch (a caller that
    ///   does not wait); a caller that waits hands what is still queued to another thread instead.
    private func enqueue(_ job: GroupCommitJob, on database: any SQLDatabase, leadsUntilEmpty: Bool) {
        let leads = pendingJobs.withLock { queue in
            queue.jobs.append(job)
            return queue.takeLead()
        }
        guard leads else { return }
        lead(on: database, untilEmpty: leadsUntilEmpty)
    }

    /// Commits batch after batch until the queue is empty, or, for a leader that must return to its caller, commits
    /// one batch and hands the lead for the rest to a thread of Dispatch's.
    private func lead(on database: any SQLDatabase, untilEmpty: Bool) {
        while true {
            commitOneBatch(on: database)
            let more = pendingJobs.withLock { queue in
                if queue.jobs.isEmpty { queue.leading = false }
                return !queue.jobs.isEmpty
            }
            guard more else { return }
            if !untilEmpty {
                // Still leading: whoever queued meanwhile did not take the lead, so the next batch must be led by
                // someone, and this caller is waited for.
                DispatchQueue.global().async { self.lead(on: database, untilEmpty: true) }
                return
            }
        }
    }

    /// Commits every queued job in one transaction, then tells each caller its outcome.
    ///
    /// Never throws: every job it takes ends with its own result or an error, so no caller is answered twice and no
    /// job told it failed is left in the queue for the next batch to commit.
    private func commitOneBatch(on database: any SQLDatabase) {
        var batch: [GroupCommitJob] = []
        do {
            try commitBatch(on: database, taking: &batch)
        } catch {
            // The writer could not be had (PostgreSQL: the session is gone and reconnecting failed), so nothing of
            // the batch ran. When the batch was not taken yet, the queued jobs (the leader's own among them) are
            // taken now and fail with the same error: the writer is unavailable to them as much as to the leader,
            // and a job left queued would be committed later although its caller was told to send it again.
            if batch.isEmpty { batch = takeQueuedJobs() }
            batch.forEach { $0.failIfUnfinished(error) }
        }
        // Outside the writer: a completion may answer its request, publish changes or start other writes.
        for member in batch { member.finish() }
    }

    private func takeQueuedJobs() -> [GroupCommitJob] {
        pendingJobs.withLock { queue in
            let taken = queue.jobs
            queue.jobs.removeAll()
            return taken
        }
    }

    /// Takes the queued jobs once the writer is held, so that jobs arriving meanwhile join the batch, and commits them.
    private func commitBatch(on database: any SQLDatabase, taking batch: inout [GroupCommitJob]) throws {
        try database.withWriter { connection in
            batch = takeQueuedJobs()
            guard !batch.isEmpty else { return }
            do {
                try connection.beginWrite()
            } catch {
                batch.forEach { $0.fail(error) }
                return
            }
            for member in batch {
                do {
                    // The savepoint travels with the member's first statement, and is never released: the next
                    // member's nests inside it and COMMIT keeps them all, so neither costs a round trip of its own.
                    // A member that fails rolls back to its own, the newest of the name (docs/storage.md).
                    try connection.executeDeferred("SAVEPOINT group_member", [])
                    member.run(on: connection)
                    // Whatever the member deferred is sent before the next member starts, so an error in it is its own.
                    if member.failure == nil {
                        do { try connection.flush() } catch { member.fail(error) }
                    }
                    if member.failure != nil, connection.isInTransaction {
                        try connection.execute("ROLLBACK TO group_member")
                    }
                } catch {
                    member.fail(error)
                }
                // On SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY or SQLITE_NOMEM "it might be necessary for SQLite to rollback and cancel
                // the entire transaction": then the members before this one are undone too, and none of the batch may report success.
                if !connection.isInTransaction {
                    let error = member.failure ?? GroupCommitFailure("the group commit's transaction ended early")
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
    }
}

extension GroupCommitJob {
    /// A job for a body of type `T`, whose completion gets a `T` back.
    static func typed<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T,
                                   completion: @escaping @Sendable (Result<T, any Error>) -> Void) -> GroupCommitJob {
        GroupCommitJob({ try body($0) }, committed: { value in
            // The job only ever holds what its own body returned.
            guard let result = value as? T else { return value }
            return committed(result)
        }, completion: { outcome in
            completion(outcome.flatMap { value in
                guard let result = value as? T else { return .failure(GroupCommitFailure("the group commit result was of the wrong type")) }
                return .success(result)
            })
        })
    }
}

/// What a caller of `GroupCommit.write` waits for: set once by the leader, read once by the caller.
final class GroupCommitOutcome<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ outcome: Result<T, any Error>) {
        result.withLock { $0 = outcome }
        done.signal()
    }

    func wait() throws -> T {
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw GroupCommitFailure("the group commit ended without an outcome") }
        return try outcome.get()
    }
}

/// Jobs waiting for the next group commit, and whether a caller is leading one.
struct GroupCommitQueue {
    var jobs: [GroupCommitJob] = []
    var leading = false

    /// Becomes the leader when nobody leads.
    mutating func takeLead() -> Bool {
        if leading { return false }
        leading = true
        return true
    }
}

/// A group commit that went wrong in a way no database reported.
struct GroupCommitFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
