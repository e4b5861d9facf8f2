import Foundation
import VouchDomain
import VouchJSON

extension RelationalStore {
    static let feedbackColumns = """
        seq, id, fix_key, revision, tester_id, platform, os_version, device, app_build, assistive_tech, at_version, verdict, task_outcome,
        severity, name_announced, role_announced, state_announced, focus_order, heard, regression, wcag, comment, channel, recorded_by, recorded_at_ms,
        browser, browser_version, link_id, link_created_by, link_opened_by
        """

    public func submitFeedback(to key: String, by requester: Requester, idempotency: IdempotencyClaim?,
                               _ build: @escaping @Sendable (Fix) throws -> [Feedback],
                               emitting: @escaping @Sendable ([Feedback], [Feedback], Fix) -> [WebhookEvent],
                               notifying: @escaping @Sendable ([Feedback], Fix, NotificationRecipients) throws -> [MailNotification]) throws -> FeedbackSubmission {
        // Feedback arrives from many testers at once: commits are grouped so each fsync carries several submissions.
        try groupWrite(by: requester, submission(to: key, by: requester, idempotency: idempotency, build, emitting: emitting, notifying: notifying))
    }

    public func submitFeedback(to key: String, by requester: Requester, idempotency: IdempotencyClaim?,
                               _ build: @escaping @Sendable (Fix) throws -> [Feedback],
                               emitting: @escaping @Sendable ([Feedback], [Feedback], Fix) -> [WebhookEvent],
                               notifying: @escaping @Sendable ([Feedback], Fix, NotificationRecipients) throws -> [MailNotification],
                               completion: @escaping @Sendable (Result<FeedbackSubmission, any Error>) -> Void) {
        groupWrite(by: requester, submission(to: key, by: requester, idempotency: idempotency, build, emitting: emitting, notifying: notifying),
                   completion: completion)
    }

    /// A submission as a group commit member's body.
    private func submission(to key: String, by requester: Requester, idempotency: IdempotencyClaim?,
                            _ build: @escaping @Sendable (Fix) throws -> [Feedback],
                            emitting: @escaping @Sendable ([Feedback], [Feedback], Fix) -> [WebhookEvent],
                            notifying: @escaping @Sendable ([Feedback], Fix, NotificationRecipients) throws -> [MailNotification])
        -> (any SQLConnection, inout TransactionChanges) throws -> FeedbackSubmission {
        { connection, changes in
            try RelationalStore.submit(to: key, by: requester, idempotency: idempotency, build, emitting: emitting, notifying: notifying, on: connection,
                                       recording: &changes, store: self)
        }
    }

    /// The fix is read once, here, and the records are made against it: what they were checked against is what they
    /// are stored against.
    static func submit(to key: String, by requester: Requester, idempotency: IdempotencyClaim?, _ build: (Fix) throws -> [Feedback],
                       emitting: ([Feedback], [Feedback], Fix) -> [WebhookEvent],
                       notifying: ([Feedback], Fix, NotificationRecipients) throws -> [MailNotification],
                       on connection: any SQLConnection, recording changes: inout TransactionChanges, store: RelationalStore) throws -> FeedbackSubmission {
        guard let fix = try feedbackFix(key, on: connection) else { throw StoreError.notFound(kind: "fix", id: key) }
        let records = try build(fix)
        if let claim = idempotency, let earlier = try connection.query(
            "SELECT request_sha256, feedback_ids FROM idempotency_records WHERE principal = ? AND key = ?", [.text(claim.principal), .text(claim.key)]).first {
            guard earlier.blob(0) == claim.requestSHA256 else {
                throw StoreConflict("the Idempotency-Key '\(claim.key)' was already used for a different submission; use a new key for new feedback")
            }
            let ids = earlier.string(1).split(separator: ",").map(String.init)
            let stored = try ids.compactMap { try feedback(id: $0, on: connection) }
            return FeedbackSubmission(records: stored, replayed: true)
        }
        guard Feedback.acceptingStates.contains(fix.state) || records.isEmpty else {
            let states = Feedback.acceptingStates.map(\.rawValue).joined(separator: ", ")
            throw StoreConflict("fix \(fix.key) is \(fix.state.rawValue) and takes no feedback; it takes feedback while \(states)")
        }
        for (index, record) in records.enumerated() {
            let prefix = records.count > 1 ? "[\(index)]." : ""
            guard record.fixKey == fix.key.rawValue else { throw StoreConflict("feedback on fix \(record.fixKey) was sent to fix \(fix.key)") }
            guard fix.revision == record.revision else {
                throw StoreConflict("fix \(fix.key) moved to revision \(fix.revision) while this feedback was being recorded; submit it again")
            }
            guard let testerID = record.testerID else { throw ValidationFailure([FieldError(field: prefix + "tester", message: "is required")]) }
            // The tester's status and enrollment in one statement, checked when its answer comes with the body's next
            // read: the writes after it are undone with the member when it refuses (docs/storage.md).
            let fixKey = fix.key
            try connection.executeDeferred(
                "SELECT status, (SELECT COUNT(*) FROM enrollments WHERE fix_key = ? AND tester_id = testers.id) FROM testers WHERE id = ?",
                [.text(fixKey.rawValue), .text(testerID)]) { rows in
                guard let tester = rows.first else { throw ValidationFailure([FieldError(field: prefix + "tester", message: "no tester '\(testerID)'")]) }
                guard tester.string(0) == "active" else { throw StoreConflict("tester \(testerID) has withdrawn; their feedback can no longer be taken") }
                guard tester.int(1) > 0 else {
                    throw StoreConflict("tester \(testerID) is not enrolled in fix \(fixKey); enroll them first (vouch enroll \(fixKey) \(testerID))")
                }
            }
            // The writes answer nothing the body reads: they go with its next read (docs/storage.md).
            try connection.executeDeferred(
                """
                INSERT INTO feedback (id, fix_key, revision, tester_id, platform, os_version, device, app_build, assistive_tech, at_version,
                    verdict, task_outcome, severity, name_announced, role_announced, state_announced, focus_order, heard, regression, wcag, comment,
                    channel, recorded_by, recorded_at_ms, browser, browser_version, link_id, link_created_by, link_opened_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(record.id), .text(record.fixKey), .int(record.revision), .text(testerID), .text(record.platform.rawValue), .text(record.osVersion),
                 .optional(record.device), .text(record.appBuild), .text(record.assistiveTech.rawValue), .optional(record.atVersion),
                 .text(record.verdict.rawValue), .text(record.taskOutcome.rawValue), .text(record.severity.rawValue),
                 .optional(record.nameAnnounced?.rawValue), .optional(record.roleAnnounced?.rawValue), .optional(record.stateAnnounced?.rawValue),
                 .optional(record.focusOrder?.rawValue), .optional(record.heard), .int(record.regression ? 1 : 0), .text(record.wcag.joined(separator: ",")),
                 .optional(record.comment), .text(record.channel.rawValue), .text(record.recordedBy), .integer(StoreClock.milliseconds(record.recordedAt)),
                 .optional(record.browser?.rawValue), .optional(record.browserVersion),
                 .optional(record.link?.id), .optional(record.link?.createdBy), .optional(record.link?.openedBy)])
            // The record becomes the tester's latest on the revision by moving one narrow row's pointer, not by
            // rewriting the previous record (docs/storage.md, "The latest feedback per tester").
            try connection.executeDeferred(
                """
                INSERT INTO latest_feedback (fix_key, revision, tester_id, seq) SELECT fix_key, revision, tester_id, seq FROM feedback WHERE id = ?
                ON CONFLICT (fix_key, revision, tester_id) DO UPDATE SET seq = excluded.seq
                """, [.text(record.id)])
            // The audit keeps the evidence, not the person: no comment, no assistive technology.
            let details: JSONValue = .object([
                "id": .string(record.id), "tester": .string(testerID), "revision": .int(record.revision), "verdict": .string(record.verdict.rawValue),
                "severity": .string(record.severity.rawValue), "regression": .bool(record.regression), "channel": .string(record.channel.rawValue),
            ])
            try store.audit(connection, AuditEvent(at: record.recordedAt, principal: record.recordedBy, action: .feedbackCreate,
                                                   fixKey: record.fixKey, subject: record.id, after: JSONWriter.string(details),
                                                   via: requester.via), deferred: true)
        }
        if !records.isEmpty {
            // The events carry the evidence (the latest feedback per tester): read and built only when an endpoint
            // will receive them. This runs inside the shared commit, where every member waits for the others' work.
            let endpoints = try enabledEndpoints(onlyTo: nil, on: connection)
            if endpoints.contains(where: { $0.receives(.feedbackReceived) }) {
                let latest = try latest(of: fix.key.rawValue, revision: fix.revision, on: connection)
                _ = try enqueue(emitting(records, latest, fix), to: endpoints, ignoringSubscriptions: false, on: connection, recording: &changes)
            }
            try enqueue(try notifying(records, fix, NotificationRecipients(connection: connection)), on: connection, recording: &changes)
            changes.record(.feedbackRecorded(FeedbackRecorded(fix: fix, records: records)))
        }
        if let claim = idempotency {
            try connection.executeDeferred(
                "INSERT INTO idempotency_records (principal, key, request_sha256, feedback_ids, created_at_ms) VALUES (?, ?, ?, ?, ?)",
                [.text(claim.principal), .text(claim.key), .blob(claim.requestSHA256), .text(records.map(\.id).joined(separator: ",")),
                 .integer(StoreClock.nowMilliseconds())])
        }
        return FeedbackSubmission(records: records, replayed: false)
    }

    /// The fix a submission is checked and stored against. The members of a group commit batch share its read (on
    /// PostgreSQL each read is a round trip): the first reads it, and each later one sends, with its writes, a check
    /// that the row is still the one read, so no feedback is stored against a fix that changed since
    /// (docs/storage.md, "Reads shared by a batch").
    static func feedbackFix(_ key: String, on connection: any SQLConnection) throws -> Fix? {
        let sql = "SELECT \(fixColumns) FROM fixes WHERE key = ?"
        let cacheKey = "fix " + key
        if let read = connection.transactionReads?[cacheKey, as: (row: SQLRow, fix: Fix).self] {
            try connection.executeDeferred(sql, [.text(key)]) { rows in
                guard rows.first?.values == read.row.values else {
                    throw StoreConflict("fix \(key) changed while this feedback was being recorded; submit it again")
                }
            }
            return read.fix
        }
        guard let row = try connection.query(sql, [.text(key)]).first else { return nil }
        let fix = try fix(from: row)
        connection.transactionReads?[cacheKey] = (row: row, fix: fix)
        return fix
    }

    public func feedback(of key: String, tester: String?, revision: Int?, after seq: Int64?, limit: Int) throws -> [StoredFeedback] {
        try storage.read { connection in
            guard try RelationalStore.fix(key, on: connection) != nil else { throw StoreError.notFound(kind: "fix", id: key) }
            var sql = "SELECT \(RelationalStore.feedbackColumns) FROM feedback WHERE fix_key = ? AND seq > ?"
            var values: [SQLValue] = [.text(key), .integer(seq ?? 0)]
            if let tester {
                sql += " AND tester_id = ?"
                values.append(.text(tester))
            }
            if let revision {
                sql += " AND revision = ?"
                values.append(.int(revision))
            }
            sql += " ORDER BY seq LIMIT ?"
            values.append(.int(limit))
            return try connection.query(sql, values).map { StoredFeedback(seq: $0.int64(0), feedback: try RelationalStore.feedback(from: $0)) }
        }
    }

    public func feedbackEvidence(of key: String, revision: Int) throws -> FeedbackEvidence {
        try storage.read { try RelationalStore.evidence(of: key, revision: revision, on: $0) }
    }

    /// The failing feedback that voids each approval of the revision: the first at or after it (by time, then by
    /// seq), once each, in that order. That is all `CriteriaEvaluator.standing(of:input:)` reads: the first of these
    /// at or after an approval is the first of all failing records at or after it. One seek per approval through
    /// `feedback_failing_by_time`; the report used to read every failing record of the revision, which grew with
    /// the records (docs/storage.md, "The failing record after an approval").
    static func failing(of key: String, revision: Int, after approvals: [Approval],
                        on connection: any SQLConnection) throws -> [(id: String, recordedAt: Date)] {
        var firsts: [(id: String, recordedAtMilliseconds: Int64, seq: Int64)] = []
        for time in Set(approvals.filter { $0.revision == revision }.map { StoreClock.milliseconds($0.recordedAt) }) {
            let rows = try connection.query(RelationalStore.firstFailingSQL, [.text(key), .int(revision), .integer(time)])
            if let row = rows.first, !firsts.contains(where: { $0.id == row.string(0) }) {
                firsts.append((row.string(0), row.int64(1), row.int64(2)))
            }
        }
        return firsts.sorted { ($0.recordedAtMilliseconds, $0.seq) < ($1.recordedAtMilliseconds, $1.seq) }
            .map { (id: $0.id, recordedAt: StoreClock.date($0.recordedAtMilliseconds)) }
    }

    /// The first failing record of a fix revision at or after a time; its order is `feedback_failing_by_time`'s.
    static let firstFailingSQL = """
        SELECT id, recorded_at_ms, seq FROM feedback
        WHERE fix_key = ? AND revision = ? AND verdict = 'failed' AND recorded_at_ms >= ?
        ORDER BY recorded_at_ms, seq LIMIT 1
        """

    public func criteriaRecords(of fix: Fix) throws -> CriteriaRecords {
        try storage.read { try RelationalStore.criteriaRecords(of: fix, on: $0) }
    }

    public func criteriaRecords(of key: String, when wanted: (Fix, [Approval]) -> Bool) throws -> (fix: Fix, records: CriteriaRecords?)? {
        try storage.read { connection in
            guard let fix = try RelationalStore.fix(key, on: connection) else { return nil }
            let approvals = try RelationalStore.approvals(of: key, on: connection)
            return (fix, wanted(fix, approvals) ? try RelationalStore.criteriaRecords(of: fix, approvals: approvals, on: connection) : nil)
        }
    }

    static func criteriaRecords(of fix: Fix, approvals known: [Approval]? = nil, on connection: any SQLConnection) throws -> CriteriaRecords {
        let key = fix.key.rawValue
        let approvals = try known ?? approvals(of: key, on: connection)
        return CriteriaRecords(latest: try latest(of: key, revision: fix.revision, on: connection),
                               failing: try failing(of: key, revision: fix.revision, after: approvals, on: connection),
                               approvals: approvals, authors: try revisionAuthors(of: fix, on: connection))
    }

    public func latestFeedback(of key: String, revision: Int) throws -> [Feedback] {
        try storage.read { try RelationalStore.latest(of: key, revision: revision, on: $0) }
    }

    /// Latest per tester through `latest_feedback`: as many rows as testers, however many records.
    static func latest(of key: String, revision: Int, on connection: any SQLConnection) throws -> [Feedback] {
        try connection.query(
            """
            SELECT \(RelationalStore.feedbackColumns) FROM feedback
            WHERE seq IN (SELECT seq FROM latest_feedback WHERE fix_key = ? AND revision = ?) ORDER BY seq
            """,
            [.text(key), .int(revision)]).map(RelationalStore.feedback(from:))
    }

    static func evidence(of key: String, revision: Int, on connection: any SQLConnection) throws -> FeedbackEvidence {
        // The count reads only the (fix, revision) range of feedback_by_fix.
        do {
            let latest = try latest(of: key, revision: revision, on: connection)
            let count = try connection.scalar("SELECT COUNT(*) FROM feedback WHERE fix_key = ? AND revision = ?", [.text(key), .int(revision)]) ?? 0
            return FeedbackEvidence(latest: latest, recordCount: count)
        }
    }

    /// Every feedback record a tester gave, for their export.
    func feedback(ofTester testerID: String, on connection: any SQLConnection) throws -> [Feedback] {
        try connection.query("SELECT \(RelationalStore.feedbackColumns) FROM feedback WHERE tester_id = ? ORDER BY seq", [.text(testerID)])
            .map(RelationalStore.feedback(from:))
    }

    static func feedback(id: String, on connection: any SQLConnection) throws -> Feedback? {
        try connection.query("SELECT \(feedbackColumns) FROM feedback WHERE id = ?", [.text(id)]).first.map(feedback(from:))
    }

    static func feedback(from row: SQLRow) throws -> Feedback {
        func announcement(_ column: Int) -> Announcement? { row.optionalString(column).flatMap(Announcement.init(rawValue:)) }
        guard let platform = Platform(rawValue: row.string(5)), let technology = AssistiveTechnology(rawValue: row.string(9)),
              let verdict = Verdict(rawValue: row.string(11)), let outcome = TaskOutcome(rawValue: row.string(12)),
              let severity = Severity(rawValue: row.string(13)), let channel = FeedbackChannel(rawValue: row.string(22)) else {
            throw StoreDataError("feedback row '\(row.string(1))' has a value this vouchd does not know")
        }
        let wcag = row.string(20)
        return Feedback(
            id: row.string(1), fixKey: row.string(2), revision: row.int(3), testerID: row.optionalString(4), platform: platform,
            osVersion: row.string(6), device: row.optionalString(7), appBuild: row.string(8), assistiveTech: technology, atVersion: row.optionalString(10),
            browser: row.optionalString(25).flatMap(Browser.init(rawValue:)), browserVersion: row.optionalString(26), verdict: verdict, taskOutcome: outcome, severity: severity, nameAnnounced: announcement(14), roleAnnounced: announcement(15),
            stateAnnounced: announcement(16), focusOrder: announcement(17), heard: row.optionalString(18), regression: row.int(19) != 0,
            wcag: wcag.isEmpty ? [] : wcag.split(separator: ",").map(String.init), comment: row.optionalString(21), channel: channel,
            recordedBy: row.string(23), recordedAt: StoreClock.date(row.int64(24)),
            link: row.optionalString(27).map { LinkUse(id: $0, createdBy: row.string(28), openedBy: row.optionalString(29)) })
    }
}
