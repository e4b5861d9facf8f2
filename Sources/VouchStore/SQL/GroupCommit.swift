import Dispatch
import Synchronization

/// One caller's work waiting to be committed together with others'.
///
/// `@unchecked Sendable`: the outcome is written only by the leader, while it holds its database's writer, before it
/// sets the finished flag (releasing) and signals `wake`; the caller reads it only once it saw the flag set
/// (acquiring) or led the commit itself, so every write comes before every read.
final class GroupCommitJob: @unchecked Sendable {
    private let body: (any SQLConnection) throws -> any Sendable
    private let afterCommit: (any Sendable) -> any Sendable
    private var outcome: Result<any Sendable, any Error>?
    /// Signalled when the job is finished, or when its caller is to lead the next commit.
    let wake = DispatchSemaphore(value: 0)
    /// Set once the job's commit (or failure) is complete; its outcome exists as soon as its body ran, before the
    /// shared COMMIT, so that alone must never wake its caller.
    private let finishedFlag = Atomic<Bool>(false)

    var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// Called by the leader once the job's outcome is final, before it wakes the caller.
    func finish() {
        finishedFlag.store(true, ordering: .releasing)
    }

    init(_ body: @escaping (any SQLConnection) throws -> any Sendable, committed: @escaping (any Sendable) -> any Sendable) {
        self.body = body
        self.afterCommit = committed
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

    func result() throws -> any Sendable {
        guard let outcome else { throw GroupCommitFailure("the group commit job was never run") }
        return try outcome.get()
    }
}

/// Commits several callers' write transactions together: one COMMIT, so one fsync, for many writes.
final class GroupCommit: Sendable {
    private let pendingJobs = Mutex(GroupCommitQueue())

    /// How many callers wait for the next commit (for tests that line callers up).
    var queuedJobs: Int { pendingJobs.withLock { $0.jobs.count } }

    /// Runs `body` in a transaction shared with other callers waiting at the same moment: one fsync for many writes.
    ///
    /// Each body runs inside its own savepoint, so one body's error rolls back only its own changes; the caller sees
    /// its own result or error. If the shared COMMIT fails, every body in the group fails with that error.
    /// - Parameter committed: runs for each member that succeeded, in order, once the shared COMMIT succeeded and
    ///   still under the writer lock; it may complete the member's result.
    func write<T: Sendable>(on database: any SQLDatabase, _ body: @escaping (any SQLConnection) throws -> T,
                            committed: @escaping (T) -> T) throws -> T {
        let job = GroupCommitJob({ try body($0) }, committed: { value in
            // The job only ever holds what its own body returned.
            guard let result = value as? T else { return value }
            return committed(result)
        })
        // One caller leads at a time and commits everything queued; the others sleep on their own semaphore until
        // the leader says their job is done, or hands them the lead. Waiting callers never queue on the writer mutex:
        // handing a contended mutex from thread to thread costs more CPU than the commits themselves.
        var leads = pendingJobs.withLock { queue in
            queue.jobs.append(job)
            return queue.takeLead()
        }
        while !leads {
            job.wake.wait()
            if job.isFinished { break }
            leads = pendingJobs.withLock { $0.takeLead() }
        }
        if leads { lead(on: database) }
        guard let result = try job.result() as? T else { throw GroupCommitFailure("the group commit result was of the wrong type") }
        return result
    }

    /// Commits every queued job in one transaction, wakes their callers, then hands the lead to the first caller
    /// still waiting, if any.
    ///
    /// Never throws: every job it takes ends with its own result or an error, so no caller is answered twice and no
    /// job told it failed is left in the queue for the next leader to commit.
    private func lead(on database: any SQLDatabase) {
        var batch: [GroupCommitJob] = []
        defer {
            for member in batch {
                member.finish()
                member.wake.signal()
            }
            let next = pendingJobs.withLock { queue in
                queue.leading = false
                return queue.jobs.first
            }
            next?.wake.signal()
        }
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
            // A caller handed the lead may find its job already carried by another leader's commit.
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
