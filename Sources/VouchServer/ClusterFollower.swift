import Foundation
import Synchronization
import VouchServices
import VouchStore

/// Keeps this vouchd current with the others on a shared database (PostgreSQL): what they commit of flags, tokens
/// and criteria reaches this process's change feed, and so its OFREP snapshot, token directory and event streams,
/// as its own writes do (docs/storage.md, "Several vouchd").
///
/// A NOTIFY from the committing process wakes it at once; a look at the configuration revision at least every
/// `pollInterval` covers a notification lost with a connection. Its subscribers never go backwards: it publishes
/// only revisions after the one it reached, and each rule carries its revision.
final class ClusterFollower: Sendable {
    private struct State {
        var stopping = false
        var running = false
        var revision: Int64
        var failing = false
    }

    private let store: any Store
    private let logger: Logger
    private let pollInterval: Duration
    private let state: Mutex<State>

    /// - Parameter revision: the revision the process's copies were loaded at; everything after it is published.
    init(store: any Store, revision: Int64, logger: Logger, pollInterval: Duration = .seconds(1)) {
        self.store = store
        self.logger = logger
        self.pollInterval = pollInterval
        state = Mutex(State(revision: revision))
    }

    /// The configuration revision this process has caught up to.
    var revision: Int64 { state.withLock { $0.revision } }

    func start() {
        state.withLock { $0.running = true }
        // LISTEN first, then read the revision: a change committed in between is both announced and read, never
        // neither. Done before returning, so every change committed after start wakes this process at once.
        try? store.waitForAnnouncement(timeout: .zero)
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopping }) {
                followOnce()
                do {
                    try store.waitForAnnouncement(timeout: pollInterval)
                } catch {
                    // The listening connection is away; the next look at the revision says whether the database is.
                    Thread.sleep(forTimeInterval: 0.2)
                }
            }
            state.withLock { $0.running = false }
        }
        thread.name = "vouchd.cluster-follower"
        thread.start()
    }

    /// Publishes whatever other processes committed since the revision reached.
    func followOnce() {
        let from = state.withLock { $0.revision }
        do {
            let reached = try store.followOtherProcesses(from: from)
            let recovered = state.withLock { state -> Bool in
                state.revision = max(state.revision, reached)
                defer { state.failing = false }
                return state.failing
            }
            if recovered { logger.info("database reachable again; following other vouchd", [("revision", String(reached))]) }
        } catch {
            let first = state.withLock { state -> Bool in
                defer { state.failing = true }
                return !state.failing
            }
            if first { logger.error("cannot follow other vouchd: the database does not answer", [("error", String(describing: error))]) }
        }
    }

    func stop() {
        state.withLock { $0.stopping = true }
        while state.withLock({ $0.running }) { usleep(5_000) }
    }
}
