import Foundation
import VouchDomain
import VouchJSON

extension SQLiteStore {
    public func recordApproval(_ approval: Approval, emitting events: [WebhookEvent]) throws {
        try database.write { connection in
            // Compared in Swift, not SQL: "Rita" and "rita", or NFC and NFD spellings, are one principal.
            let voters = try connection.query("SELECT principal FROM approvals WHERE fix_key = ? AND revision = ?",
                                              [.text(approval.fixKey), .int(approval.revision)]).map { $0.string(0) }
            if voters.contains(where: { Principal.sameIdentity($0, approval.principal) }) {
                throw StoreConflict("\(approval.principal) already decided on revision \(approval.revision) of fix \(approval.fixKey); one vote per principal and revision")
            }
            try connection.query(
                """
                INSERT INTO approvals (id, fix_key, revision, principal, decision, comment, evidence_hash, recorded_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(approval.id), .text(approval.fixKey), .int(approval.revision), .text(approval.principal), .text(approval.decision.rawValue),
                 .optional(approval.comment), .text(approval.evidenceHash), .integer(StoreClock.milliseconds(approval.recordedAt))])
            try audit(connection, AuditEvent(
                at: approval.recordedAt, principal: approval.principal, action: "approval.\(approval.decision.rawValue)", fixKey: approval.fixKey,
                subject: approval.id, note: approval.comment,
                after: JSONWriter.string(.object(["revision": .int(approval.revision), "evidence_hash": .string(approval.evidenceHash)]))))
            _ = try SQLiteStore.enqueue(events, onlyTo: nil, on: connection)
        }
    }

    public func approvals(of key: String) throws -> [Approval] {
        try database.read { connection in
            try connection.query(
                "SELECT id, fix_key, revision, principal, decision, comment, evidence_hash, recorded_at_ms FROM approvals WHERE fix_key = ? ORDER BY recorded_at_ms, id",
                [.text(key)]
            ).map { row in
                Approval(id: row.string(0), fixKey: row.string(1), revision: row.int(2), principal: row.string(3),
                         decision: Approval.Decision(rawValue: row.string(4)) ?? .reject, comment: row.optionalString(5), evidenceHash: row.string(6),
                         recordedAt: StoreClock.date(row.int64(7)))
            }
        }
    }
}
