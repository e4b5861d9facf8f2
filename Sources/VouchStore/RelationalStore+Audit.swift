import Foundation
import VouchDomain

extension RelationalStore {
    public func auditEvents(fix key: String?, after id: Int64?, limit: Int) throws -> [AuditEvent] {
        try database.read { connection in
            var sql = "SELECT id, at_ms, principal, action, fix_key, subject, note, before_json, after_json FROM audit_events WHERE id > ?"
            var values: [SQLValue] = [.integer(id ?? 0)]
            if let key {
                sql += " AND fix_key = ?"
                values.append(.text(key))
            }
            sql += " ORDER BY id LIMIT ?"
            values.append(.int(limit))
            return try connection.query(sql, values).map { row in
                guard let action = AuditAction(rawValue: row.string(3)) else {
                    throw StoreDataError("audit event \(row.int64(0)) has an action this vouchd does not know")
                }
                return AuditEvent(id: row.int64(0), at: StoreClock.date(row.int64(1)), principal: row.string(2), action: action,
                           fixKey: row.optionalString(4), subject: row.optionalString(5), note: row.optionalString(6),
                           before: row.optionalString(7), after: row.optionalString(8))
            }
        }
    }
}
