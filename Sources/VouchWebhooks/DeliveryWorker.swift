import Foundation
import Synchronization
import VouchDomain
import VouchStore

/// Sends due webhook deliveries from the durable outbox on dedicated threads (curl blocks, so never on the
/// cooperative pool) and records each attempt; the store publishes the deliveries that settle.
///
/// Pending deliveries live in SQLite, so a restart resumes them; the in-memory state is only which ids are
/// being sent right now.
public final class DeliveryWorker: Sendable {
    public struct Settings: Sendable {
        public var schedule: DeliverySchedule
        public var timeoutMilliseconds: Int
        public var allowPrivateNetworks: Bool
        public var threadCount: Int
        /// The longest the dispatcher sleeps without being woken, so new due times are never missed for long.
        public var maxIdleMilliseconds: Int
        /// How long a claimed delivery stays this process's: another vouchd on the same database takes it over after
        /// that (`database.lease`). Longer than an attempt can take, so a live process never loses one mid-attempt.
        public var leaseMilliseconds: Int
        /// What formats other than Standard Webhooks need: `webhooks.token_directory` and `console.public_url`.
        public var shaping: WebhookRequest.Shaping

        /// The values vouchd's configuration sets (`webhooks.*`, `database.lease`) have no default here: vouchd's table
        /// of settings holds theirs, and a second one here could only drift from it.
        public init(schedule: DeliverySchedule, timeoutMilliseconds: Int, allowPrivateNetworks: Bool,
                    threadCount: Int = 4, maxIdleMilliseconds: Int = 1_000, leaseMilliseconds: Int,
                    shaping: WebhookRequest.Shaping = WebhookRequest.Shaping()) {
            self.shaping = shaping
            self.schedule = schedule
            self.timeoutMilliseconds = timeoutMilliseconds
            self.allowPrivateNetworks = allowPrivateNetworks
            self.threadCount = threadCount
            self.maxIdleMilliseconds = maxIdleMilliseconds
            self.leaseMilliseconds = leaseMilliseconds
        }
    }

    private struct State {
        var queue: [DeliveryJob] = []
        var inFlight: Set<String> = []
        var stopping = false
        var wakeRequested = false
        var running = 0
        var wakesByCommits = 0
    }

    private let store: any Store
    private let settings: Settings
    private let resolver: HostResolver
    private let clock: @Sendable () -> Date
    private let onError: @Sendable (String, any Error) -> Void
    private let state = Mutex(State())
    private let condition = ConditionBox()
    /// Who holds the leases this process takes: host, process id and a random part, unique per start.
    private let owner = DeliveryWorker.makeOwner()

    /// - Parameter resolver: where the senders look host names up, each within a third of its attempt's timeout
    ///   (`WebhookSender`); the process's one resolver, shared with the webhook routes.
    public init(store: any Store, settings: Settings, resolver: HostResolver, clock: @escaping @Sendable () -> Date = { Date() },
                onError: @escaping @Sendable (String, any Error) -> Void) {
        self.store = store
        self.settings = settings
        self.resolver = resolver
        self.clock = clock
        self.onError = onError
    }

    /// Starts the dispatcher and the sending threads.
    public func start() {
        state.withLock { $0.running = settings.threadCount + 1 }
        let dispatcher = Thread { [self] in dispatchLoop() }
        dispatcher.name = "vouchd.webhooks.dispatch"
        dispatcher.start()
        for index in 0..<settings.threadCount {
            let sender = Thread { [self] in sendLoop() }
            sender.name = "vouchd.webhooks.send.\(index)"
            sender.start()
        }
    }

    /// Asks the dispatcher to look for due deliveries now (after new events were put in the outbox).
    public func wake() {
        condition.signal.lock()
        state.withLock { $0.wakeRequested = true }
        condition.signal.broadcast()
        condition.signal.unlock()
    }

    /// The change feed's subscriber: wakes the dispatcher when a commit put deliveries in the outbox or requeued one.
    public func react(to committed: CommittedChanges) {
        let due = committed.changes.contains { change in
            switch change {
            case .outboxRowsAdded, .deliveryRequeued: true
            default: false
            }
        }
        guard due else { return }
        state.withLock { $0.wakesByCommits += 1 }
        wake()
    }

    /// How many commits woke the dispatcher (its own senders wake it too, uncounted).
    public var wakesByCommits: Int { state.withLock { $0.wakesByCommits } }

    /// Stops taking new work, lets attempts in flight finish and be recorded, and waits for the threads.
    /// Deliveries still queued stay pending in SQLite and are resumed on the next start.
    public func stop() {
        condition.signal.lock()
        state.withLock { $0.stopping = true; $0.queue.removeAll() }
        condition.signal.broadcast()
        condition.signal.unlock()
        while state.withLock({ $0.running }) > 0 { usleep(5_000) }
    }

    private func dispatchLoop() {
        defer { state.withLock { $0.running -= 1 } }
        while !state.withLock({ $0.stopping }) {
            var sleepMilliseconds = settings.maxIdleMilliseconds
            do {
                let now = clock()
                let busy = state.withLock { $0.inFlight.union($0.queue.map(\.delivery.id)) }
                let capacity = max(0, settings.threadCount * 4 - busy.count)
                let leaseUntil = now.addingTimeInterval(Double(settings.leaseMilliseconds) / 1_000)
                let due = capacity == 0 ? [] : try store.claimDeliveries(at: now, by: owner, leaseUntil: leaseUntil, excluding: busy, limit: capacity)
                if !due.isEmpty {
                    condition.signal.lock()
                    state.withLock { $0.queue.append(contentsOf: due) }
                    condition.signal.broadcast()
                    condition.signal.unlock()
                }
                if let next = try store.nextDeliveryDue() {
                    sleepMilliseconds = min(sleepMilliseconds, max(1, Int(next.timeIntervalSince(now) * 1_000)))
                }
                if due.count == capacity && capacity > 0 { sleepMilliseconds = 1 }
            } catch {
                onError("webhook dispatch failed", error)
            }
            condition.signal.lock()
            if !state.withLock({ $0.wakeRequested || $0.stopping }) {
                _ = condition.signal.wait(until: Date().addingTimeInterval(Double(sleepMilliseconds) / 1_000))
            }
            state.withLock { $0.wakeRequested = false }
            condition.signal.unlock()
        }
    }

    private func sendLoop() {
        defer { state.withLock { $0.running -= 1 } }
        let sender = WebhookSender(timeoutMilliseconds: settings.timeoutMilliseconds, allowPrivateNetworks: settings.allowPrivateNetworks, resolver: resolver,
                                   shaping: settings.shaping)
        while true {
            condition.signal.lock()
            var job: DeliveryJob?
            while job == nil {
                let (stopping, next) = state.withLock { state -> (Bool, DeliveryJob?) in
                    if state.stopping { return (true, nil) }
                    guard !state.queue.isEmpty else { return (false, nil) }
                    let taken = state.queue.removeFirst()
                    state.inFlight.insert(taken.delivery.id)
                    return (false, taken)
                }
                if stopping {
                    condition.signal.unlock()
                    return
                }
                job = next
                if job == nil { condition.signal.wait() }
            }
            condition.signal.unlock()
            guard let job else { continue }
            attempt(job, with: sender)
            state.withLock { _ = $0.inFlight.remove(job.delivery.id) }
            // A settled delivery may free capacity or make the next one due: let the dispatcher look again.
            wake()
        }
    }

    private func attempt(_ job: DeliveryJob, with sender: WebhookSender) {
        let now = clock()
        let outcome = sender.send(job, eventID: job.delivery.eventID, now: now)
        let number = job.delivery.attempts + 1
        let decision = settings.schedule.decide(after: outcome.result, attempt: number, now: clock(), random: Double.random(in: 0..<1))
        do {
            _ = try store.recordAttempt(DeliveryAttempt(deliveryID: job.delivery.id, number: number, at: now, statusCode: outcome.statusCode,
                                                        error: outcome.error, durationMilliseconds: outcome.durationMilliseconds,
                                                        decision: decision, claimedBy: owner))
        } catch let lost as LeaseLost where lost.cancelled {
            // Its webhook was deleted or disabled while the attempt ran: the delivery ended as cancelled, as asked.
            return
        } catch let lost as LeaseLost {
            // Frozen or cut off past the lease: another vouchd has taken the delivery over, and its attempt stands.
            onError("a webhook attempt came back after its lease had passed to another vouchd", lost)
        } catch {
            onError("recording a webhook attempt failed", error)
        }
    }
}

extension DeliveryWorker {
    static func makeOwner() -> String {
        var name = [CChar](repeating: 0, count: 256)
        // The name up to its terminating zero; `String(cString:)` on an array is deprecated.
        let host = gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "host"
        return "\(host):\(getpid()):\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }
}

/// The lock and condition the worker's threads sleep on.
///
/// `@unchecked Sendable`: NSCondition is thread-safe by design; that is its purpose.
final class ConditionBox: @unchecked Sendable {
    /// Held while checking the queue and while waiting, as NSCondition requires.
    let signal = NSCondition()
}
