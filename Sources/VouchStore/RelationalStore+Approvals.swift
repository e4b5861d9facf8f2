import Foundation
import VouchDomain
import VouchJSON

extension RelationalStore {
    /// Records a decision; one standing vote per principal and revision.
    /// - Parameter replacing: the principal's own voided or expired approval that this one replaces, as the caller saw
    ///   it; if the standing votes changed meanwhile, nothing is written and the caller is told to look again.
    public func recordApproval(_ approval: Approval, by requester: Requester, replacing: String?, emitting events: [WebhookEvent]) throws {
        try write(by: requester) { connection, changes in
            // Four-eyes, checked where it cannot race an edit: whoever shaped this revision, up to this transaction,
            // may not decide on it.
            guard let fix = try RelationalStore.fix(approval.fixKey, on: connection) else { throw StoreError.notFound(kind: "fix", id: approval.fixKey) }
            guard fix.revision == approval.revision else {
                throw StoreConflict("fix \(approval.fixKey) moved to revision \(fix.revision) while the decision was being recorded; look at the evidence again")
            }
            let authors = try RelationalStore.revisionAuthors(of: fix, on: connection)
            if let author = authors.first(where: { Principal.sameIdentity($0.principal, approval.principal) }) {
                throw DecisionRefused(author.refusal(fix: approval.fixKey, revision: fix.revision))
            }
            // Compared in Swift, not SQL, so names stored before normalisation still meet their normalised spelling.
            let standing = try connection.query("SELECT id, principal FROM approvals WHERE fix_key = ? AND revision = ? AND replaced_at_ms IS NULL",
                                                [.text(approval.fixKey), .int(approval.revision)])
                .filter { Principal.sameIdentity($0.string(1), approval.principal) }.map { $0.string(0) }
            guard standing == (replacing.map { [$0] } ?? []) else {
                throw StoreConflict("\(approval.principal) already decided on revision \(approval.revision) of fix \(approval.fixKey); one standing vote per principal and revision")
            }
            if let replacing {
                try connection.query("UPDATE approvals SET replaced_at_ms = ? WHERE id = ?",
                                     [.integer(StoreClock.milliseconds(approval.recordedAt)), .text(replacing)])
            }
            try connection.query(
                """
                INSERT INTO approvals (id, fix_key, revision, principal, decision, comment, evidence_hash, recorded_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(approval.id), .text(approval.fixKey), .int(approval.revision), .text(approval.principal), .text(approval.decision.rawValue),
                 .optional(approval.comment), .text(approval.evidenceHash), .integer(StoreClock.milliseconds(approval.recordedAt))])
            try audit(connection, AuditEvent(
                at: approval.recordedAt, principal: approval.principal, action: AuditAction(decision: approval.decision), fixKey: approval.fixKey,
                subject: approval.id, note: approval.comment,
                after: JSONWriter.string(.object(["revision": .int(approval.revision), "evidence_hash": .string(approval.evidenceHash),
                                                  "replaces": .optional(replacing)])), via: requester.via))
            _ = try RelationalStore.enqueue(events, onlyTo: nil, on: connection, recording: &changes)
            changes.record(.approvalRecorded(fixKey: approval.fixKey))
        }
    }

    public func approvals(of key: String) throws -> [Approval] {
        try storage.read { try RelationalStore.approvals(of: key, on: $0) }
    }

    static func approvals(of key: String, on connection: any SQLConnection) throws -> [Approval] {
        try connection.query(
            "SELECT id, fix_key, revision, principal, decision, comment, evidence_hash, recorded_at_ms FROM approvals WHERE fix_key = ? AND replaced_at_ms IS NULL ORDER BY recorded_at_ms, id",
            [.text(key)]
        ).map { row in
            Approval(id: row.string(0), fixKey: row.string(1), revision: row.int(2), principal: row.string(3),
                     decision: Approval.Decision(rawValue: row.string(4)) ?? .reject, comment: row.optionalString(5), evidenceHash: row.string(6),
                     recordedAt: StoreClock.date(row.int64(7)))
        }
    }
}
