import Foundation
import Synchronization
import VouchClient
import VouchDomain
import VouchMail
import VouchStore

/// Sends the outbox's notifications by email on threads of its own (libcurl blocks: never a request's thread, never
/// the cooperative pool), each claimed under a lease, and records every attempt: sent, retried on the schedule after
/// a failure a later attempt may get past (`SMTPError.isTransient`), or given up (docs/notifications.md).
///
/// The outbox is in the store, so a restart resumes it; at least once: a process that dies between the relay's
/// acceptance and the record sends that mail again, with the same `Message-ID`.
public final class NotificationWorker: Sendable {
    public struct Settings: Sendable {
        public var server: SMTPURL
        public var credentials: SMTPClient.Credentials?
        public var composer: NotificationComposer
        public var schedule: DeliverySchedule
        public var timeoutSeconds: Int
        public var leaseMilliseconds: Int
        public var threadCount: Int
        /// The longest a sender sleeps without being woken, so a due retry is never missed for long.
        public var maxIdleMilliseconds: Int

        public init(server: SMTPURL, credentials: SMTPClient.Credentials?, composer: NotificationComposer, schedule: DeliverySchedule,
                    timeoutSeconds: Int, leaseMilliseconds: Int, threadCount: Int = 2, maxIdleMilliseconds: Int = 1_000) {
            self.server = server
            self.credentials = credentials
            self.composer = composer
            self.schedule = schedule
            self.timeoutSeconds = timeoutSeconds
            self.leaseMilliseconds = leaseMilliseconds
            self.threadCount = threadCount
            self.maxIdleMilliseconds = maxIdleMilliseconds
        }
    }

    private struct State {
        var stopping = false
        var wakeRequested = false
        var running = 0
        var sent = 0
    }

    private let store: any Store
    private let settings: Settings
    private let clock: @Sendable () -> Date
    private let onError: @Sendable (String, any Error) -> Void
    private let state = Mutex(State())
    private let signal = Signal()
    /// The process and a random part, unique per start; each sending thread adds its number, so two threads never
    /// hold one lease.
    private let owner = "mail:\(getpid()):\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"

    public init(store: any Store, settings: Settings, clock: @escaping @Sendable () -> Date = { Date() },
                onError: @escaping @Sendable (String, any Error) -> Void) {
        self.store = store
        self.settings = settings
        self.clock = clock
        self.onError = onError
    }

    public func start() {
        state.withLock { $0.running = settings.threadCount }
        for index in 0..<settings.threadCount {
            let thread = Thread { [self] in sendLoop(owner: "\(owner):\(index)") }
            thread.name = "vouchd.mail.send.\(index)"
            thread.start()
        }
    }

    /// Lets the attempts in flight finish and be recorded, then returns; what is queued stays for the next start.
    public func stop() {
        signal.condition.lock()
        state.withLock { $0.stopping = true }
        signal.condition.broadcast()
        signal.condition.unlock()
        while state.withLock({ $0.running }) > 0 { usleep(5_000) }
    }

    public func wake() {
        signal.condition.lock()
        state.withLock { $0.wakeRequested = true }
        signal.condition.broadcast()
        signal.condition.unlock()
    }

    /// The change feed's subscriber: a commit that queued notifications wakes the senders.
    public func react(to committed: CommittedChanges) {
        if committed.changes.contains(where: { if case .notificationsQueued = $0 { true } else { false } }) { wake() }
    }

    /// How many mails the relay accepted since the start.
    public var sentCount: Int { state.withLock { $0.sent } }

    private func sendLoop(owner: String) {
        defer { state.withLock { $0.running -= 1 } }
        let client = SMTPClient(server: settings.server, credentials: settings.credentials, timeoutSeconds: settings.timeoutSeconds)
        while !state.withLock({ $0.stopping }) {
            var sleepMilliseconds = settings.maxIdleMilliseconds
            do {
                let now = clock()
                let leaseUntil = now.addingTimeInterval(Double(settings.leaseMilliseconds) / 1_000)
                if let notification = try store.claimNotifications(at: now, by: owner, leaseUntil: leaseUntil, excluding: [], limit: 1).first {
                    attempt(notification, owner: owner, with: client)
                    continue
                }
                if let next = try store.nextNotificationDue() {
                    sleepMilliseconds = min(sleepMilliseconds, max(1, Int(next.timeIntervalSince(now) * 1_000)))
                }
            } catch {
                onError("claiming notifications failed", error)
            }
            signal.condition.lock()
            if !state.withLock({ $0.wakeRequested || $0.stopping }) {
                _ = signal.condition.wait(until: Date().addingTimeInterval(Double(sleepMilliseconds) / 1_000))
            }
            state.withLock { $0.wakeRequested = false }
            signal.condition.unlock()
        }
    }

    private func attempt(_ notification: MailNotification, owner: String, with client: SMTPClient) {
        let outcome: NotificationOutcome
        do {
            let fix = try notification.fixKey.flatMap { try store.fix($0) }
            let message = try settings.composer.message(for: notification, fix: fix, at: clock())
            try client.send(message.bytes, from: settings.composer.from, to: message.to)
            outcome = .sent
        } catch let error as SMTPError {
            if error.isTransient {
                switch settings.schedule.decide(after: .failed(error.description), attempt: notification.attempts + 1, now: clock(),
                                                random: Double.random(in: 0..<1)) {
                case .retry(let time): outcome = .retry(at: time, error: error.description)
                case .dead(let reason), .disableEndpoint(let reason): outcome = .dead(error: reason)
                case .succeeded: outcome = .sent
                }
            } else {
                outcome = .dead(error: error.description)
            }
        } catch let error as NotificationComposer.Unwritable {
            outcome = .dead(error: error.description)
        } catch {
            // The store could not be read: try again soon, like a relay that did not answer.
            outcome = .retry(at: clock().addingTimeInterval(5), error: "reading the fix failed")
            onError("reading a notification's fix failed", error)
        }
        do {
            _ = try store.recordNotificationAttempt(notification.id, by: owner, at: clock(), outcome: outcome)
            if outcome == .sent { state.withLock { $0.sent += 1 } }
        } catch let lost as LeaseLost where lost.cancelled {
            // Her withdrawal or an opt-out cancelled it while it was being sent: as she asked, nothing more to do.
            return
        } catch {
            onError("recording a notification attempt failed", error)
        }
    }
}

/// The lock and condition the senders sleep on. `@unchecked Sendable`: NSCondition is thread-safe by design.
final class Signal: @unchecked Sendable {
    let condition = NSCondition()
}
