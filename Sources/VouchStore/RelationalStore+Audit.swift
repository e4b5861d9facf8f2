import Foundation
import VouchDomain

extension RelationalStore {
    public func auditEvents(matching filter: AuditFilter, after id: Int64?, limit: Int) throws -> [AuditEvent] {
        try storage.read { connection in
            var sql = "SELECT id, at_ms, principal, action, fix_key, subject, note, before_json, after_json, via FROM audit_events WHERE id > ?"
            var values: [SQLValue] = [.integer(id ?? 0)]
            func narrow(_ condition: String, _ value: SQLValue?) {
                guard let value else { return }
                sql += " AND " + condition
                values.append(value)
            }
            narrow("fix_key = ?", filter.fix.map(SQLValue.text))
            narrow("action = ?", filter.action.map { .text($0.rawValue) })
            narrow("principal = ?", filter.principal.map(SQLValue.text))
            narrow("at_ms >= ?", filter.since.map { .integer(StoreClock.milliseconds($0)) })
            narrow("at_ms < ?", filter.until.map { .integer(StoreClock.milliseconds($0)) })
            sql += " ORDER BY id LIMIT ?"
            values.append(.int(limit))
            return try connection.query(sql, values).map { row in
                guard let action = AuditAction(rawValue: row.string(3)) else {
                    throw StoreDataError("audit event \(row.int64(0)) has an action this vouchd does not know")
                }
                return AuditEvent(id: row.int64(0), at: StoreClock.date(row.int64(1)), principal: row.string(2), action: action,
                           fixKey: row.optionalString(4), subject: row.optionalString(5), note: row.optionalString(6),
                           before: row.optionalString(7), after: row.optionalString(8), via: row.optionalString(9))
            }
        }
    }

    /// Who shaped the fix's current revision (`RevisionAuthor`), from its audit events.
    public func revisionAuthors(of fix: Fix) throws -> [RevisionAuthor] {
        try storage.read { try RelationalStore.revisionAuthors(of: fix, on: $0) }
    }

    /// The fix's authoring events, through the partial index `audit_events_authoring` (migration 0021 on SQLite, 0013
    /// on PostgreSQL), whose list of actions is this one in the same order: any other list leaves the index unused and
    /// walks every event of the fix, a feedback.create per record.
    static let revisionAuthorsSQL = "SELECT id, at_ms, principal, action FROM audit_events WHERE fix_key = ? AND action IN ("
        + RevisionAuthor.authoringActions.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ") ORDER BY id"

    static func revisionAuthors(of fix: Fix, on connection: any SQLConnection) throws -> [RevisionAuthor] {
        let events = try connection.query(revisionAuthorsSQL, [.text(fix.key.rawValue)]).compactMap { row in
            AuditAction(rawValue: row.string(3)).map { AuditEvent(id: row.int64(0), at: StoreClock.date(row.int64(1)), principal: row.string(2), action: $0) }
        }
        return RevisionAuthor.authors(of: fix, from: events)
    }
}
