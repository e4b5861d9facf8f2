import Dispatch
import Foundation
import Synchronization
import VouchDomain
import VouchJSON
import VouchStore

/// Moves fixes through the lifecycle with their webhook events, checks criteria, and promotes, releases,
/// rolls out and pauses on its own when the evidence, the deliveries or the clock say so.
///
/// It hears of changes from the store's change feed (`react(to:)`), like every other part that follows the store.
public final class PromotionService: Sendable {
    let store: any Store
    let settings: PromotionSettings
    let clock: @Sendable () -> Date
    let logger: Logger
    let timer: PromotionTimer
    /// Criteria checks that feedback asked for, one at a time, off the submitting request's thread.
    private let checks = DispatchQueue(label: "vouch.promotion-checks")
    /// Fixes with a check queued and not yet begun: feedback arriving meanwhile joins that check.
    private let checksQueued = Mutex<Set<String>>([])

    public init(store: any Store, settings: PromotionSettings, clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.store = store
        self.settings = settings
        self.clock = clock
        self.logger = logger
        // With other vouchd on the database, the one that scheduled a soak's end or a rollout step may be gone when it
        // comes: every node looks at least once per lease.
        timer = PromotionTimer(maxSleepMilliseconds: store.isShared ? min(settings.maxTimerSleepMilliseconds, settings.leaseMilliseconds)
                                                                      : settings.maxTimerSleepMilliseconds)
    }

    // MARK: Criteria

    /// Every criterion of the fix, met or not, at this moment.
    public func report(for fix: Fix) throws -> CriteriaReport {
        try CriteriaEvaluator.evaluate(input(for: fix))
    }

    /// What the criteria of `fix` are evaluated on now, read in one transaction.
    public func input(for fix: Fix) throws -> CriteriaEvaluator.Input {
        input(for: fix, try store.criteriaRecords(of: fix))
    }

    func input(for fix: Fix, _ records: CriteriaRecords) -> CriteriaEvaluator.Input {
        CriteriaEvaluator.Input(fix: fix, settings: settings.criteria.applying(fix.criteria), latest: records.latest, failing: records.failing,
                                testingSince: fix.testingSince, approvals: records.approvals, now: clock(), authors: records.authors)
    }

    func evidence(for fix: Fix) -> WebhookEventFactory.Evidence? {
        (try? store.latestFeedback(of: fix.key.rawValue, revision: fix.revision)).map { WebhookEventFactory.Evidence(latest: $0) }
    }

    // MARK: Transitions

    /// Applies a lifecycle action with its audit event and webhook event.
    /// - Parameter evidence: the fix's evidence as the caller just read it; read here when nil.
    @discardableResult
    func transition(_ key: String, _ action: FixAction, by principal: Requester, note: String? = nil, evidence known: WebhookEventFactory.Evidence? = nil,
                    extra: @escaping @Sendable (Fix) -> JSONObject = { _ in [:] },
                    prepare: @escaping @Sendable (Fix) throws -> Fix = { $0 }) throws -> FixChange {
        let time = clock()
        let evidenceBefore = try known ?? store.fix(key).flatMap { evidence(for: $0) }
        let change = try store.updateFix(key, action: AuditAction(transition: action), by: principal, note: note, emitting: { before, after in
            guard let type = WebhookEventType(transition: action) else { return [] }
            // A new revision starts with no evidence.
            let evidence = after.revision == before.revision ? evidenceBefore : WebhookEventFactory.Evidence(latest: [])
            return [WebhookEventFactory.make(type, fix: after, evidence: evidence, extra: extra(after), id: after.promotionEventID.flatMap {
                action == .promote || action == .retryPromotion ? $0 : nil
            } ?? WebhookEventFactory.makeID(), at: time)]
        }, notifying: { [settings] before, after, recipients in
            try settings.notifications.fixChanged(before, after, recipients: recipients, at: time)
        }) { fix in
            try prepare(fix).applying(action, at: time)
        }
        logger.info("fix changed", [("fix.key", key), ("fix.action", action.rawValue), ("fix.state", change.after.state.rawValue),
                                    ("fix.revision", String(change.after.revision))])
        return change
    }

    /// A person's lifecycle command; `promote` and `retry-promotion` need the criteria met.
    func perform(_ action: FixAction, on key: String, by principal: Principal, note: String?) throws -> FixChange {
        switch action {
        case .promote, .retryPromotion:
            guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
            let allowed = Lifecycle.allowedActions(from: fix.state, pausedFrom: fix.pausedFrom)
            guard allowed.contains(action) else {
                throw TransitionRefused(state: fix.state, action: action, allowedActions: allowed)
            }
            let input = try input(for: fix)
            let report = CriteriaEvaluator.evaluate(input)
            guard report.allMet else { throw CriteriaNotMet(report) }
            return try promote(key, action: action, by: Requester(principal), expectedRevision: fix.revision,
                               evidence: WebhookEventFactory.Evidence(latest: input.latest))
        default:
            return try transition(key, action, by: Requester(principal), note: note)
        }
    }

    /// testing → promoting (or promotion_failed → promoting), emitting `fix.promoted` and remembering its id; its
    /// deliveries settle it (`react(to:)`).
    /// - Parameter evidence: the evidence the criteria were met on, for the event; the revision is checked again.
    func promote(_ key: String, action: FixAction, by principal: Requester, expectedRevision: Int,
                 evidence: WebhookEventFactory.Evidence) throws -> FixChange {
        let eventID = WebhookEventFactory.makeID()
        return try transition(key, action, by: principal, evidence: evidence, prepare: { fix in
            guard fix.revision == expectedRevision else {
                throw StoreConflict("fix \(key) moved to revision \(fix.revision) while it was being promoted; its criteria are checked again")
            }
            var next = fix
            next.promotionEventID = eventID
            return next
        })
    }

    // MARK: Reactions

    /// The change feed's subscriber: looks at a fix's criteria again after whatever can change them, settles
    /// promotions from their deliveries, and keeps the timer on the next rollout step.
    public func react(to committed: CommittedChanges) {
        for change in committed.changes {
            do {
                switch change {
                case .feedbackRecorded(let recorded):
                    try feedbackArrived(recorded)
                case .approvalRecorded(let key), .criteriaChanged(let key):
                    try afterChange(key)
                case .fixChanged(let change):
                    if change.after.state == .releasing, let step = change.after.nextRolloutStepAt { timer.schedule(step) }
                    if change.isTransition { try afterChange(change.after.key.rawValue, fix: change.after) }
                case .deliverySettled(let delivery):
                    try deliverySettled(delivery)
                case .deliveriesCancelled:
                    // A cancelled required delivery fails the promotion that waited on it.
                    for fix in try store.fixes(in: [.promoting]) { try settlePromotion(fix.key.rawValue) }
                default:
                    break
                }
            } catch is TransitionRefused {
                // Someone else moved the fix first; what they did stands.
            } catch {
                logger.error("promotion could not follow a change", [("error", String(describing: error))])
            }
        }
    }

    /// Re-evaluates a fix after anything that can change its criteria; promotes it when ready.
    /// - Parameters:
    ///   - fix: the fix as just committed, when the caller has it; otherwise it is read in the same transaction as
    ///     what its criteria are evaluated on.
    ///   - afterFeedback: only the evidence changed. Unless mail is on (a fix that now awaits a decision is told to
    ///     its release managers), the criteria are then evaluated only when the evidence may promote the fix.
    func afterChange(_ key: String, fix known: Fix? = nil, afterFeedback: Bool = false) throws {
        let fix: Fix
        var records: CriteriaRecords?
        if let known {
            fix = known
        } else {
            let notifying = settings.notifications.enabled
            guard let read = try store.criteriaRecords(of: key, when: { fix, approvals in
                fix.state == .testing && (!afterFeedback || notifying || CriteriaEvaluator.evidenceMayPromote(fix, approvals: approvals))
            }) else { return }
            (fix, records) = read
            // Feedback on a fix in testing that it cannot promote: nothing to do.
            if fix.state == .testing, records == nil { return }
        }
        switch fix.state {
        case .testing:
            let input = try records.map { self.input(for: fix, $0) } ?? self.input(for: fix)
            let report = CriteriaEvaluator.evaluate(input)
            if let next = CriteriaEvaluator.nextTimeChange(input) { timer.schedule(next) }
            if report.awaitsDecision, settings.notifications.enabled {
                let time = clock()
                try store.queueNotifications { [settings] recipients in
                    try settings.notifications.readyForDecision(fix, recipients: recipients, at: time)
                }
            }
            if report.readyToPromote {
                do {
                    _ = try promote(key, action: .promote, by: "vouchd", expectedRevision: fix.revision,
                                    evidence: WebhookEventFactory.Evidence(latest: input.latest))
                    logger.info("fix promoted automatically", [("fix.key", key)])
                } catch is TransitionRefused {
                    // Someone else moved the fix first; nothing to do.
                } catch is StoreConflict {
                    // The fix changed under the promotion; look again at once.
                    timer.schedule(clock())
                }
            }
        case .promoting:
            try settlePromotion(key)
        default:
            break
        }
    }

    /// After feedback: a blocking report pauses a fix that is being or has been released; otherwise re-evaluate.
    func feedbackArrived(_ recorded: FeedbackRecorded) throws {
        let fix = recorded.fix
        if (fix.state == .releasing || fix.state == .released), let blocking = recorded.records.first(where: \.isBlocking) {
            try transition(recorded.fixKey, .pause, by: "vouchd", note: "paused automatically: blocking feedback \(blocking.id)", extra: { _ in
                ["reason": .string("blocking feedback"), "feedback": .string(blocking.id)]
            })
            return
        }
        checkSoon(recorded.fixKey)
    }

    /// Checks the fix's criteria on the checks queue. Sixteen submissions committed together ask once rather than
    /// sixteen times, and none of them waits for it; the check reads the fix and its evidence as committed by then,
    /// so it never decides on less than any of the submissions saw.
    func checkSoon(_ key: String) {
        let queued = checksQueued.withLock { $0.insert(key).inserted }
        guard queued else { return }
        checks.async { [weak self] in
            guard let self else { return }
            // Dequeued before the check begins: feedback committed during it queues the next one.
            checksQueued.withLock { _ = $0.remove(key) }
            do {
                try afterChange(key, afterFeedback: true)
            } catch is TransitionRefused {
                // Someone else moved the fix first; what they did stands.
            } catch {
                logger.error("promotion could not check a fix after feedback", [("fix.key", key), ("error", String(describing: error))])
            }
        }
    }

    /// Decides a promotion from its `fix.promoted` deliveries: every required one 2xx → released (or releasing);
    /// any required one dead → promotion_failed.
    func settlePromotion(_ key: String) throws {
        guard let fix = try store.fix(key), fix.state == .promoting, let eventID = fix.promotionEventID else { return }
        let required = try store.deliveries(ofEvent: eventID).filter(\.required)
        if required.contains(where: { $0.status == .dead || $0.status == .cancelled }) {
            _ = try? transition(key, .promotionFailed, by: "vouchd", note: "a required webhook delivery failed")
            return
        }
        guard required.allSatisfy({ $0.status == .succeeded }) else { return }
        if fix.rollout != nil {
            _ = try? transition(key, .promotionSucceededPhased, by: "vouchd", extra: { fix in ["percentage": .int(fix.rolloutPercentage ?? 0)] })
        } else {
            _ = try? transition(key, .promotionSucceeded, by: "vouchd")
        }
    }

    /// A webhook delivery reached its end: it may decide a promotion.
    func deliverySettled(_ delivery: WebhookDelivery) throws {
        guard delivery.eventType == .fixPromoted, delivery.required else { return }
        for fix in try store.fixes(in: [.promoting]) where fix.promotionEventID == delivery.eventID {
            try settlePromotion(fix.key.rawValue)
        }
    }

    /// The timer's work, done by one vouchd at a time among those sharing the database: the others skip their tick
    /// while one holds the lock (docs/storage.md, "Several vouchd").
    func sharedTick() -> Date? {
        do {
            return try store.whileHolding(.promotionTimer, lease: .milliseconds(settings.leaseMilliseconds)) { stillHeld in
                tick(stillHeld: stillHeld)
            } ?? nil
        } catch {
            logger.error("promotion timer could not take its lock", [("error", String(describing: error))])
            return nil
        }
    }

    /// Time-driven work: soak reached, approvals expiring, rollout steps; returns when to look again.
    /// - Parameter stillHeld: whether this process still holds the timer's lock; once lost (frozen past the lease),
    ///   the rest of the tick is left to the process that holds it now.
    func tick(stillHeld: () -> Bool = { true }) -> Date? {
        let now = clock()
        var next: Date?
        func consider(_ time: Date?) {
            guard let time else { return }
            next = next.map { min($0, time) } ?? time
        }
        do {
            for fix in try store.fixes(in: [.testing, .promoting, .releasing]) {
                guard stillHeld() else {
                    logger.warning("promotion timer lost its lock mid-tick; another vouchd carries on")
                    return nil
                }
                switch fix.state {
                case .testing:
                    let input = try input(for: fix)
                    let report = CriteriaEvaluator.evaluate(input)
                    // A fix that waits for a decision is looked at too: after a restart its release managers' mail
                    // is queued if the process died before it was (its id makes it once only).
                    if report.readyToPromote || (report.awaitsDecision && settings.notifications.enabled) {
                        try afterChange(fix.key.rawValue)
                    } else {
                        consider(CriteriaEvaluator.nextTimeChange(input))
                    }
                case .promoting:
                    try settlePromotion(fix.key.rawValue)
                case .releasing:
                    consider(try advanceRollout(fix, now: now))
                default:
                    break
                }
            }
        } catch {
            logger.error("promotion timer failed", [("error", String(describing: error))])
        }
        return next
    }

    /// Takes the rollout's next step when it is due; returns when the following one is due.
    func advanceRollout(_ fix: Fix, now: Date) throws -> Date? {
        guard let plan = fix.rollout, let due = fix.nextRolloutStepAt else { return nil }
        guard due <= now else { return due }
        let current = fix.rolloutPercentage ?? 0
        guard let step = plan.step(after: current), step < 100 else {
            try transition(fix.key.rawValue, .rolloutCompleted, by: "vouchd")
            return nil
        }
        let time = clock()
        let change = try store.updateFix(fix.key.rawValue, action: .fixRolloutStep, by: "vouchd", note: "\(step) %", emitting: { _, after in
            [WebhookEventFactory.make(.fixRolloutStep, fix: after, evidence: self.evidence(for: after), extra: ["percentage": .int(step)], at: time)]
        }) { current in
            guard current.state == .releasing, current.rolloutPercentage == fix.rolloutPercentage else { return current }
            var next = current
            next.rolloutPercentage = step
            next.nextRolloutStepAt = time.addingTimeInterval(Double(plan.intervalSeconds))
            next.updatedAt = time
            return next
        }
        return change.after.nextRolloutStepAt
    }

    // MARK: Lifecycle of the service

    public func start() {
        timer.start { [self] in sharedTick() }
    }

    public func stop() {
        timer.stop()
        // Checks already queued finish before the store can close.
        checks.sync {}
    }
}
