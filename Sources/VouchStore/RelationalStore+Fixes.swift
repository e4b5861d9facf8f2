import Foundation
import VouchCodec
import VouchDomain
import VouchJSON

extension RelationalStore {
    static let fixColumns = """
        key, title, description, ui_area, platforms, wcag, expected_announcement, author, revision, state,
        paused_from, rollout_percentage, created_at_ms, updated_at_ms, testing_since_ms, criteria_json, rollout_steps, rollout_interval_s,
        rollout_next_step_at_ms, promotion_event_id, language, rollout_bucketing
        """

    public func createFix(_ fix: Fix, by principal: Requester, emitting events: [WebhookEvent]) throws -> Fix {
        try write(by: principal) { connection, changes in
            if try connection.scalar("SELECT 1 FROM fixes WHERE key = ?", [.text(fix.key.rawValue)]) != nil {
                throw StoreError.alreadyExists(kind: "fix", id: fix.key.rawValue)
            }
            try connection.query(
                "INSERT INTO fixes (\(RelationalStore.fixColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                RelationalStore.values(of: fix))
            try audit(connection, AuditEvent(at: fix.createdAt, by: principal, action: .fixCreate, fixKey: fix.key.rawValue,
                                             after: JSONWriter.string(fix.jsonValue)))
            _ = try RelationalStore.enqueue(events, onlyTo: nil, on: connection, recording: &changes)
            changes.flagRuleChanged(fix.key.rawValue)
            return fix
        }
    }

    public func fix(_ key: String) throws -> Fix? {
        try storage.read { try RelationalStore.fix(key, on: $0) }
    }

    public func fixes(state: FixState?, after key: String?, limit: Int) throws -> [Fix] {
        try storage.read { connection in
            var sql = "SELECT \(RelationalStore.fixColumns) FROM fixes WHERE key > ?"
            var values: [SQLValue] = [.text(key ?? "")]
            if let state {
                sql += " AND state = ?"
                values.append(.text(state.rawValue))
            }
            sql += " ORDER BY key LIMIT ?"
            values.append(.int(limit))
            return try connection.query(sql, values).map(RelationalStore.fix(from:))
        }
    }

    public func updateFix(_ key: String, action: AuditAction, by principal: Requester, note: String?, emitting: (Fix, Fix) -> [WebhookEvent],
                          notifying: (Fix, Fix, NotificationRecipients) throws -> [MailNotification],
                          _ change: (Fix) throws -> Fix) throws -> FixChange {
        try write(by: principal) { connection, changes in
            guard let before = try RelationalStore.fix(key, on: connection) else { throw StoreError.notFound(kind: "fix", id: key) }
            let after = try change(before)
            let fixChange = FixChange(before: before, after: after)
            if after != before {
                var values = RelationalStore.values(of: after)
                values.append(values.removeFirst())
                try connection.query(
                    """
                    UPDATE fixes SET title = ?, description = ?, ui_area = ?, platforms = ?, wcag = ?, expected_announcement = ?,
                        author = ?, revision = ?, state = ?, paused_from = ?, rollout_percentage = ?, created_at_ms = ?, updated_at_ms = ?,
                        testing_since_ms = ?, criteria_json = ?, rollout_steps = ?, rollout_interval_s = ?, rollout_next_step_at_ms = ?,
                        promotion_event_id = ?, language = ?, rollout_bucketing = ?
                    WHERE key = ?
                    """, values)
                changes.record(.fixChanged(fixChange))
                if fixChange.changesFlagRule { changes.flagRuleChanged(key) }
                if after.criteria != before.criteria { changes.record(.criteriaChanged(fixKey: key)) }
            }
            try audit(connection, AuditEvent(at: after.updatedAt, by: principal, action: action, fixKey: key, note: note,
                                             before: JSONWriter.string(before.jsonValue), after: JSONWriter.string(after.jsonValue)))
            _ = try RelationalStore.enqueue(emitting(before, after), onlyTo: nil, on: connection, recording: &changes)
            try RelationalStore.enqueue(try notifying(before, after, NotificationRecipients(connection: connection)), on: connection, recording: &changes)
            return fixChange
        }
    }

    /// Direct targets and the keys of active testers enrolled in the fix.
    static let targetedKeysSQL = """
        SELECT fix_key, targeting_key FROM fix_targets
        UNION
        SELECT e.fix_key, k.targeting_key FROM enrollments e
            JOIN testers t ON t.id = e.tester_id AND t.status = 'active'
            JOIN tester_keys k ON k.tester_id = e.tester_id
        """

    public func fixes(in states: [FixState]) throws -> [Fix] {
        try storage.read { connection in
            let placeholders = states.map { _ in "?" }.joined(separator: ", ")
            return try connection.query("SELECT \(RelationalStore.fixColumns) FROM fixes WHERE state IN (\(placeholders)) ORDER BY key",
                                        states.map { .text($0.rawValue) }).map(RelationalStore.fix(from:))
        }
    }

    /// Every fix's rule, in key order.
    ///
    /// Both reads come ordered by fix key (the fixes table and the targets' primary keys are in that order, so
    /// SQLite sorts nothing, and its `UNION ALL` merges the two parts), and are joined by walking them side by side:
    /// no table of a million fix keys is hashed, filled and probed at random, which at a million fixes cost more
    /// than the reads (BENCHMARKS.md, part 12). Rows are read as they are stepped (no [SQLRow]); each fix's keys
    /// become one set, sized once. Should the two orders ever disagree (a target row whose fix is not met in turn),
    /// the sets are joined by key instead, so the result never depends on the order.
    public func flagRules() throws -> [FlagRule] {
        try storage.read { connection in
            // The targeted keys in groups, one per run of rows of the same fix.
            var groups: [(fix: String, keys: Set<String>)] = []
            var groupFix: String?
            var group: [String] = []
            func closeGroup() {
                guard let fix = groupFix else { return }
                groups.append((fix, Set(group)))
                group.removeAll(keepingCapacity: true)
            }
            let targetsSQL = RelationalStore.targetedKeysSQL.replacingOccurrences(of: "UNION", with: "UNION ALL") + " ORDER BY 1"
            try connection.forEachRow(targetsSQL) { row in
                if let fix = groupFix, row.text(0, equals: fix) {
                    group.append(row.string(1))
                    return
                }
                closeGroup()
                groupFix = row.string(0)
                group.append(row.string(1))
            }
            closeGroup()
            var rules: [FlagRule] = []
            try connection.forEachRow("SELECT key, state, revision, rollout_percentage, rollout_bucketing FROM fixes ORDER BY key") { row in
                rules.append(FlagRule(key: row.string(0), state: FixState(rawValue: row.string(1)) ?? .paused, revision: row.int(2),
                                      rolloutPercentage: row.optionalInt(3) ?? 0, bucketing: Bucketing(rawValue: row.string(4)) ?? .flagd))
            }
            RelationalStore.attach(groups, to: &rules)
            return rules
        }
    }

    /// Gives each rule the targeted keys of the groups under its key. Both lists are expected in the same order of
    /// keys, and are walked side by side; if a group is left unmatched (the orders disagree, or a group's fix is
    /// not among the rules), the groups are joined by key instead, so the result never depends on the order.
    static func attach(_ groups: [(fix: String, keys: Set<String>)], to rules: inout [FlagRule]) {
        var next = 0
        for position in rules.indices {
            while next < groups.count && groups[next].fix == rules[position].key {
                // The group's set itself when it is the first (a fix's keys are one group but where a source
                // repeats a key): no copy.
                if rules[position].targetedKeys.isEmpty {
                    rules[position].targetedKeys = groups[next].keys
                } else {
                    rules[position].targetedKeys.formUnion(groups[next].keys)
                }
                next += 1
            }
        }
        guard next < groups.count else { return }
        var byFix: [String: Set<String>] = [:]
        for group in groups { byFix[group.fix, default: []].formUnion(group.keys) }
        for position in rules.indices { rules[position].targetedKeys = byFix[rules[position].key] ?? [] }
    }

    /// The fix's rule as this transaction leaves it; `version` is the configuration revision it commits with.
    static func rule(for fix: Fix, version: Int64, on connection: any SQLConnection) throws -> FlagRule {
        let targets = try connection.query(
            """
            SELECT targeting_key FROM fix_targets WHERE fix_key = ?1
            UNION
            SELECT k.targeting_key FROM enrollments e
                JOIN testers t ON t.id = e.tester_id AND t.status = 'active'
                JOIN tester_keys k ON k.tester_id = e.tester_id
            WHERE e.fix_key = ?1
            """, [.text(fix.key.rawValue)])
        return FlagRule(key: fix.key.rawValue, state: fix.state, revision: fix.revision,
                        targetedKeys: Set(targets.map { $0.string(0) }), rolloutPercentage: fix.rolloutPercentage ?? 0,
                        bucketing: fix.rolloutBucketing, version: version)
    }

    static func fix(_ key: String, on connection: any SQLConnection) throws -> Fix? {
        try connection.query("SELECT \(fixColumns) FROM fixes WHERE key = ?", [.text(key)]).first.map(fix(from:))
    }

    static func values(of fix: Fix) -> [SQLValue] {
        [
            .text(fix.key.rawValue), .text(fix.title), .optional(fix.description), .text(fix.uiArea),
            .text(fix.platforms.map(\.rawValue).joined(separator: ",")), .text(fix.wcag.joined(separator: ",")),
            .optional(fix.expectedAnnouncement), .text(fix.author), .int(fix.revision), .text(fix.state.rawValue),
            .optional(fix.pausedFrom?.rawValue), .optional(fix.rolloutPercentage),
            .integer(StoreClock.milliseconds(fix.createdAt)), .integer(StoreClock.milliseconds(fix.updatedAt)),
            fix.testingSince.map { .integer(StoreClock.milliseconds($0)) } ?? .null,
            fix.criteria.isEmpty ? .null : .text(JSONWriter.string(fix.criteria.jsonValue)),
            .optional(fix.rollout.map { $0.steps.map(String.init).joined(separator: ",") }), .optional(fix.rollout?.intervalSeconds),
            fix.nextRolloutStepAt.map { .integer(StoreClock.milliseconds($0)) } ?? .null, .optional(fix.promotionEventID),
            .optional(fix.language), .text(fix.rolloutBucketing.rawValue),
        ]
    }

    static func fix(from row: SQLRow) throws -> Fix {
        func list(_ text: String) -> [String] { text.isEmpty ? [] : text.split(separator: ",").map(String.init) }
        // Rows were validated on the way in; a value the binary does not know means a damaged or foreign file.
        guard let key = try? FixKey(validating: row.string(0)), let state = FixState(rawValue: row.string(9)) else {
            throw StoreDataError("fix row '\(row.string(0))' has an unknown key or state")
        }
        var fix = Fix(
            key: key, title: row.string(1), description: row.optionalString(2), uiArea: row.string(3),
            platforms: list(row.string(4)).compactMap(Platform.init(rawValue:)), wcag: list(row.string(5)),
            expectedAnnouncement: row.optionalString(6), author: row.string(7), revision: row.int(8), state: state,
            pausedFrom: row.optionalString(10).flatMap(FixState.init(rawValue:)), rolloutPercentage: row.optionalInt(11),
            createdAt: StoreClock.date(row.int64(12)), updatedAt: StoreClock.date(row.int64(13)))
        fix.testingSince = row.optionalInt(14).map { StoreClock.date(Int64($0)) }
        if let text = row.optionalString(15), let json = try? JSONParser.parse(text) {
            fix.criteria = CriteriaOverrides.read(json).overrides
        }
        if let steps = row.optionalString(16), let interval = row.optionalInt(17) {
            fix.rollout = RolloutPlan(steps: steps.split(separator: ",").compactMap { Int($0) }, intervalSeconds: interval)
        }
        fix.nextRolloutStepAt = row.optionalInt(18).map { StoreClock.date(Int64($0)) }
        fix.promotionEventID = row.optionalString(19)
        fix.language = row.optionalString(20)
        guard let bucketing = Bucketing(rawValue: row.string(21)) else {
            throw StoreDataError("fix row '\(row.string(0))' has an unknown rollout bucketing")
        }
        fix.rolloutBucketing = bucketing
        return fix
    }
}
