import Foundation
import VouchDomain
import VouchJSON

extension RelationalStore {
    public func createTester(_ tester: Tester, by principal: Requester) throws -> Tester {
        try write(by: principal) { connection, changes in
            try RelationalStore.insert(tester, on: connection)
            try audit(connection, AuditEvent(at: tester.createdAt, by: principal, action: .testerCreate, subject: tester.id,
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: tester))))
            changes.record(.testerChanged(id: tester.id))
            return tester
        }
    }

    public func tester(_ id: String) throws -> Tester? {
        try storage.read { try RelationalStore.tester(id, on: $0) }
    }

    public func testers(after id: String?, limit: Int) throws -> [Tester] {
        try storage.read { connection in
            try connection.query("SELECT id FROM testers WHERE id > ? ORDER BY id LIMIT ?", [.text(id ?? ""), .int(limit)])
                .compactMap { try RelationalStore.tester($0.string(0), on: connection) }
        }
    }

    public func updateTester(_ id: String, by principal: Requester, _ change: (Tester) throws -> Tester) throws -> TesterChange {
        try write(by: principal) { connection, changes in
            guard let before = try RelationalStore.tester(id, on: connection) else { throw StoreError.notFound(kind: "tester", id: id) }
            let after = try change(before)
            if after != before {
                try connection.query(
                    """
                    UPDATE testers SET consent_version = ?, consent_given_at_ms = ?, consent_recorded_by = ?, consent_given_by = ?, consent_language = ?,
                                       updated_at_ms = ?
                    WHERE id = ?
                    """,
                    [.text(after.consent.version), .integer(StoreClock.milliseconds(after.consent.givenAt)), .text(after.consent.recordedBy),
                     .text(after.consent.givenBy.rawValue), .optional(after.consent.language), .integer(StoreClock.milliseconds(after.updatedAt)), .text(id)])
                try RelationalStore.erasePersonalData(of: id, on: connection)
                try RelationalStore.writePersonalData(of: after, on: connection)
                try audit(connection, AuditEvent(at: after.updatedAt, by: principal, action: .testerUpdate, subject: id,
                                                 before: JSONWriter.string(RelationalStore.auditDescription(of: before)),
                                                 after: JSONWriter.string(RelationalStore.auditDescription(of: after))))
                changes.record(.testerChanged(id: id))
            }
            // Her keys are targeted by every fix she is enrolled in.
            if Set(after.targetingKeys) != Set(before.targetingKeys) {
                try RelationalStore.enrolledFixes(of: id, on: connection).forEach { changes.flagRuleChanged($0) }
            }
            return TesterChange(before: before, after: after)
        }
    }

    public func withdrawTester(_ id: String, purgeFeedback: Bool, by principal: Requester, at time: Date,
                               notifying: (Tester) throws -> [MailNotification]) throws -> Withdrawal {
        let withdrawal = try write(by: principal) { connection, changes -> Withdrawal in
            guard let before = try RelationalStore.tester(id, on: connection) else { throw StoreError.notFound(kind: "tester", id: id) }
            guard before.isActive else {
                let when = before.withdrawnAt.map { " at \($0.formatted(.iso8601))" } ?? ""
                throw StoreConflict("tester \(id) already withdrew\(when); their data was erased then and their feedback unlinked or deleted")
            }
            // What was queued for her goes, with her choices of mail; the mail that confirms the withdrawal is queued
            // in the same transaction, with a copy of the address that is erased below (docs/notifications.md).
            try RelationalStore.forgetNotifications(of: id, on: connection)
            try RelationalStore.enqueue(try notifying(before), on: connection, recording: &changes)
            let enrolled = try RelationalStore.enrolledFixes(of: id, on: connection)
            // Her keys go from every fix's direct targets too: a maintainer may have added one for her, and the flag
            // must go off for it like for the rest (docs/privacy.md, "Withdrawal and erasure").
            let keys = try connection.query("SELECT targeting_key FROM tester_keys WHERE tester_id = ?", [.text(id)]).map { $0.string(0) }
            var targeted: [String] = []
            for key in keys {
                targeted += try connection.query("SELECT fix_key FROM fix_targets WHERE targeting_key = ?", [.text(key)]).map { $0.string(0) }
                try connection.query("DELETE FROM fix_targets WHERE targeting_key = ?", [.text(key)])
            }
            try RelationalStore.erasePersonalData(of: id, on: connection)
            try connection.query("DELETE FROM enrollments WHERE tester_id = ?", [.text(id)])
            // Her panels say which assistive technology she uses ("VoiceOver on iOS"): she leaves every one.
            try connection.query("DELETE FROM panel_members WHERE tester_id = ?", [.text(id)])
            let panelsLeft = connection.changes
            var deleted = 0
            var unlinked = 0
            if purgeFeedback {
                try connection.query("DELETE FROM feedback WHERE tester_id = ?", [.text(id)])
                deleted = connection.changes
                try connection.query("DELETE FROM latest_feedback WHERE tester_id = ?", [.text(id)])
            } else {
                // The structured verdicts stay so past decisions remain explainable (verdict, outcome, severity,
                // platform, technology, announcements, revision, time); the free text, every detail that could single
                // her out (device, versions, build, what she heard, who recorded it) and the link to her go.
                try connection.query(
                    """
                    UPDATE feedback SET tester_id = NULL, comment = NULL, heard = NULL, device = NULL, at_version = NULL,
                        browser_version = NULL, os_version = '', app_build = '', recorded_by = 'withdrawn'
                    WHERE tester_id = ?
                    """, [.text(id)])
                unlinked = connection.changes
                // Her latest records keep counting, no longer tied to her.
                try connection.query("UPDATE latest_feedback SET tester_id = NULL WHERE tester_id = ?", [.text(id)])
            }
            let tokenRows = try connection.query("SELECT id, revoked_at_ms IS NULL FROM tokens WHERE tester_id = ?", [.text(id)])
            let allTokens = tokenRows.map { $0.string(0) }
            let tokens = tokenRows.filter { $0.int(1) != 0 }.map { $0.string(0) }
            for token in allTokens {
                // Her submissions' idempotency records (keyed by her tokens) would tie her tokens to her feedback ids.
                try connection.query("DELETE FROM idempotency_records WHERE principal = ?", [.text(token)])
            }
            // Her personal links go, and with them her console sessions and unsent answers; so do the idempotency
            // records of what she sent through them.
            let links = try connection.query("SELECT id FROM tester_links WHERE tester_id = ?", [.text(id)]).map { $0.string(0) }
            for link in links {
                try connection.query("DELETE FROM idempotency_records WHERE principal = ?", [.text(link)])
            }
            try connection.query("DELETE FROM tester_links WHERE tester_id = ?", [.text(id)])
            try connection.query("DELETE FROM console_sessions WHERE token_id IN (SELECT id FROM tokens WHERE tester_id = ?)", [.text(id)])
            try connection.query("UPDATE tokens SET revoked_at_ms = ? WHERE tester_id = ? AND revoked_at_ms IS NULL",
                                 [.integer(StoreClock.milliseconds(time)), .text(id)])
            // A token's name may be her name ("Aiko's phone"); the revoked tokens stay, tied to no one.
            try connection.query("UPDATE tokens SET name = 'withdrawn', principal = 'withdrawn', tester_id = 'withdrawn' WHERE tester_id = ?", [.text(id)])
            try connection.query("UPDATE testers SET status = 'withdrawn', withdrawn_at_ms = ?, updated_at_ms = ? WHERE id = ?",
                                 [.integer(StoreClock.milliseconds(time)), .integer(StoreClock.milliseconds(time)), .text(id)])
            guard let after = try RelationalStore.tester(id, on: connection) else { throw StoreError.notFound(kind: "tester", id: id) }
            let details: JSONValue = .object([
                "purge_feedback": .bool(purgeFeedback), "feedback_unlinked": .int(unlinked), "feedback_deleted": .int(deleted),
                "tokens_revoked": .int(tokens.count), "enrollments_removed": .int(enrolled.count), "direct_targets_removed": .int(targeted.count),
                "panels_left": .int(panelsLeft),
            ])
            try audit(connection, AuditEvent(at: time, by: principal, action: .testerWithdraw, subject: id,
                                             before: JSONWriter.string(RelationalStore.auditDescription(of: before)), after: JSONWriter.string(details)))
            try RelationalStore.unlinkAuditEvents(testerID: id, tokenIDs: allTokens, targetingKeys: keys, on: connection)
            // The flag goes off for her keys at once, and her tokens stop working.
            Set(enrolled + targeted).sorted().forEach { changes.flagRuleChanged($0) }
            for token in tokens {
                try RelationalStore.token(token, on: connection).map { changes.record(.tokenRevoked($0)) }
            }
            changes.record(.testerChanged(id: id))
            return Withdrawal(tester: after, revokedTokenIDs: tokens, feedbackUnlinked: unlinked, feedbackDeleted: deleted)
        }
        // Erasure must reach the file itself: old WAL frames still hold the erased rows until a checkpoint.
        try storage.purgeDeletedRows()
        return withdrawal
    }

    public func exportTester(_ id: String) throws -> TesterExport {
        try storage.read { connection in
            guard let tester = try RelationalStore.tester(id, on: connection) else { throw StoreError.notFound(kind: "tester", id: id) }
            let enrollments = try connection.query(
                "SELECT fix_key, enrolled_by, enrolled_at_ms FROM enrollments WHERE tester_id = ? ORDER BY fix_key", [.text(id)]
            ).map { (fixKey: $0.string(0), enrolledBy: $0.string(1), enrolledAt: StoreClock.date($0.int64(2))) }
            let tokens = try connection.query(
                "SELECT \(RelationalStore.tokenColumns) FROM tokens WHERE tester_id = ? ORDER BY id",
                [.text(id)]).map(RelationalStore.token(from:))
            let panels = try connection.query(
                """
                SELECT p.id, p.name, m.added_by, m.added_at_ms FROM panel_members m JOIN panels p ON p.id = m.panel_id
                WHERE m.tester_id = ? ORDER BY p.name_folded, p.id
                """, [.text(id)]
            ).map { (panelID: $0.string(0), name: $0.string(1), addedBy: $0.string(2), addedAt: StoreClock.date($0.int64(3))) }
            let feedback = try feedback(ofTester: id, on: connection)
            var fixes: [String: Fix] = [:]
            for key in Set(feedback.map(\.fixKey)) { fixes[key] = try RelationalStore.fix(key, on: connection) }
            return TesterExport(tester: tester, enrollments: enrollments, panels: panels, feedback: feedback, tokens: tokens, fixes: fixes)
        }
    }

    public func enrolledFixes(of testerID: String) throws -> [String] {
        try storage.read { try RelationalStore.enrolledFixes(of: testerID, on: $0) }
    }

    static func enrolledFixes(of testerID: String, on connection: any SQLConnection) throws -> [String] {
        try connection.query("SELECT fix_key FROM enrollments WHERE tester_id = ? ORDER BY fix_key", [.text(testerID)]).map { $0.string(0) }
    }

    static func tester(_ id: String, on connection: any SQLConnection) throws -> Tester? {
        guard let row = try connection.query(
            """
            SELECT t.id, t.status, t.consent_version, t.consent_given_at_ms, t.consent_recorded_by, t.created_at_ms, t.updated_at_ms,
                   t.withdrawn_at_ms, i.name, i.contact, t.consent_given_by, t.consent_language, i.email
            FROM testers t LEFT JOIN tester_identities i ON i.tester_id = t.id WHERE t.id = ?
            """, [.text(id)]).first else { return nil }
        let profiles = try connection.query(
            "SELECT technology, platform, version, browser FROM tester_assistive_tech WHERE tester_id = ? ORDER BY position", [.text(id)]
        ).compactMap { row -> AssistiveTechProfile? in
            guard let technology = AssistiveTechnology(rawValue: row.string(0)), let platform = Platform(rawValue: row.string(1)) else { return nil }
            return AssistiveTechProfile(technology: technology, platform: platform, version: row.optionalString(2),
                                        browser: row.optionalString(3).flatMap(Browser.init(rawValue:)))
        }
        let keys = try connection.query("SELECT targeting_key FROM tester_keys WHERE tester_id = ? ORDER BY targeting_key", [.text(id)]).map { $0.string(0) }
        return Tester(
            id: row.string(0), name: row.optionalString(8), contact: row.optionalString(9), assistiveTech: profiles, targetingKeys: keys,
            consent: Consent(version: row.string(2), givenAt: StoreClock.date(row.int64(3)), recordedBy: row.string(4),
                             givenBy: Consent.Giver(rawValue: row.string(10)) ?? .staff, language: row.optionalString(11)),
            status: Tester.Status(rawValue: row.string(1)) ?? .withdrawn, createdAt: StoreClock.date(row.int64(5)),
            updatedAt: StoreClock.date(row.int64(6)), withdrawnAt: row.optionalInt(7).map { StoreClock.date(Int64($0)) }, email: row.optionalString(12))
    }

    /// A new active tester with her consent record and personal data.
    static func insert(_ tester: Tester, on connection: any SQLConnection) throws {
        try connection.query(
            """
            INSERT INTO testers (id, status, consent_version, consent_given_at_ms, consent_recorded_by, consent_given_by, consent_language,
                                 created_at_ms, updated_at_ms)
            VALUES (?, 'active', ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(tester.id), .text(tester.consent.version), .integer(StoreClock.milliseconds(tester.consent.givenAt)), .text(tester.consent.recordedBy),
             .text(tester.consent.givenBy.rawValue), .optional(tester.consent.language),
             .integer(StoreClock.milliseconds(tester.createdAt)), .integer(StoreClock.milliseconds(tester.updatedAt))])
        try writePersonalData(of: tester, on: connection)
    }

    static func writePersonalData(of tester: Tester, on connection: any SQLConnection) throws {
        if let name = tester.name {
            try connection.query("INSERT INTO tester_identities (tester_id, name, contact, email) VALUES (?, ?, ?, ?)",
                                 [.text(tester.id), .text(name), .optional(tester.contact), .optional(tester.email)])
        }
        for (position, profile) in tester.assistiveTech.enumerated() {
            try connection.query("INSERT INTO tester_assistive_tech (tester_id, position, technology, platform, version, browser) VALUES (?, ?, ?, ?, ?, ?)",
                                 [.text(tester.id), .int(position), .text(profile.technology.rawValue), .text(profile.platform.rawValue), .optional(profile.version),
                                  .optional(profile.browser?.rawValue)])
        }
        for key in tester.targetingKeys {
            try connection.query("INSERT INTO tester_keys (tester_id, targeting_key) VALUES (?, ?) ON CONFLICT DO NOTHING", [.text(tester.id), .text(key)])
        }
    }

    /// Rewrites the audit log so that nothing in it leads back to a withdrawn tester: her pseudonym and her targeting
    /// keys become "withdrawn" wherever they appear (as the acting principal, as a subject, inside before and after),
    /// and her tokens' events lose their names. Pseudonyms are random (`t_` and 16 letters or digits), so replacing
    /// the text is exact; keys are replaced as whole JSON strings, so `user-1` never touches `user-10`.
    static func unlinkAuditEvents(testerID: String, tokenIDs: [String], targetingKeys: [String], on connection: any SQLConnection) throws {
        try connection.query(
            """
            UPDATE audit_events SET
                principal = CASE WHEN principal = ?1 THEN 'withdrawn' ELSE principal END,
                subject = replace(subject, ?1, 'withdrawn'), note = replace(note, ?1, 'withdrawn'),
                before_json = replace(before_json, ?1, 'withdrawn'), after_json = replace(after_json, ?1, 'withdrawn')
            WHERE principal = ?1 OR instr(subject, ?1) > 0 OR instr(note, ?1) > 0 OR instr(before_json, ?1) > 0 OR instr(after_json, ?1) > 0
            """, [.text(testerID)])
        let erasedToken = JSONWriter.string(.object(["name": .string("withdrawn"), "principal": .string("withdrawn"), "role": .string("tester"),
                                                     "tester": .string("withdrawn"), "revoked": .bool(true)]))
        for token in tokenIDs {
            try connection.query("UPDATE audit_events SET before_json = CASE WHEN before_json IS NULL THEN NULL ELSE ?1 END, after_json = ?1 WHERE subject = ?2",
                                 [.text(erasedToken), .text(token)])
        }
        for key in targetingKeys {
            let quoted = JSONWriter.string(.string(key))
            try connection.query(
                """
                UPDATE audit_events SET before_json = replace(before_json, ?1, '"withdrawn"'), after_json = replace(after_json, ?1, '"withdrawn"')
                WHERE instr(before_json, ?1) > 0 OR instr(after_json, ?1) > 0
                """, [.text(quoted)])
        }
    }

    static func erasePersonalData(of id: String, on connection: any SQLConnection) throws {
        for table in ["tester_identities", "tester_assistive_tech", "tester_keys"] {
            try connection.query("DELETE FROM \(table) WHERE tester_id = ?", [.text(id)])
        }
    }

    /// What the audit log keeps of a tester: the pseudonym and the consent record, never name, contact,
    /// assistive technologies or keys.
    static func auditDescription(of tester: Tester) -> JSONValue {
        .object([
            "id": .string(tester.id), "status": .string(tester.status.rawValue), "consent_version": .string(tester.consent.version),
            "consent_given_by": .string(tester.consent.givenBy.rawValue),
            "assistive_tech_count": .int(tester.assistiveTech.count), "targeting_key_count": .int(tester.targetingKeys.count),
        ])
    }
}
