import Foundation
import VouchDomain
import VouchJSON

extension RelationalStore {
    static let endpointColumns = "id, url, events, required, secret, enabled, disabled_reason, created_by, created_at_ms, updated_at_ms, format, token_file"

    public func createEndpoint(_ endpoint: WebhookEndpoint, by requester: Requester) throws {
        try write(by: requester) { connection, _ in
            try connection.query("INSERT INTO webhook_endpoints (\(RelationalStore.endpointColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 RelationalStore.values(of: endpoint))
            try audit(connection, AuditEvent(at: endpoint.createdAt, principal: endpoint.createdBy, action: .webhookCreate, subject: endpoint.id,
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: endpoint))))
        }
    }

    public func endpoints(after id: String?, limit: Int) throws -> [WebhookEndpoint] {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.endpointColumns) FROM webhook_endpoints WHERE id > ? AND deleted_at_ms IS NULL ORDER BY id LIMIT ?",
                                 [.text(id ?? ""), .int(limit)]).map(RelationalStore.endpoint(from:))
        }
    }

    public func endpoint(_ id: String) throws -> WebhookEndpoint? {
        try storage.read { try RelationalStore.endpoint(id, on: $0) }
    }

    public func updateEndpoint(_ id: String, by principal: Requester, _ change: (WebhookEndpoint) throws -> WebhookEndpoint) throws -> WebhookEndpoint {
        try write(by: principal) { connection, changes in
            guard let before = try RelationalStore.endpoint(id, on: connection) else { throw StoreError.notFound(kind: "webhook", id: id) }
            let after = try change(before)
            guard after != before else { return after }
            var values = RelationalStore.values(of: after)
            values.append(values.removeFirst())
            try connection.query(
                """
                UPDATE webhook_endpoints SET url = ?, events = ?, required = ?, secret = ?, enabled = ?, disabled_reason = ?, created_by = ?,
                    created_at_ms = ?, updated_at_ms = ?, format = ?, token_file = ? WHERE id = ?
                """, values)
            if before.enabled && !after.enabled {
                // Disabled by hand: nothing more goes out to it, as after a 410.
                try RelationalStore.cancelPendingDeliveries(of: id, at: after.updatedAt, on: connection, recording: &changes)
            }
            try audit(connection, AuditEvent(at: after.updatedAt, by: principal, action: .webhookUpdate, subject: id,
                                             before: JSONWriter.string(RelationalStore.auditDescription(of: before)),
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: after))))
            return after
        }
    }

    public func deleteEndpoint(_ id: String, by principal: Requester, at time: Date) throws {
        try write(by: principal) { connection, changes in
            guard let before = try RelationalStore.endpoint(id, on: connection) else { throw StoreError.notFound(kind: "webhook", id: id) }
            // Kept as a row so its deliveries keep their history; pending ones are cancelled, which fails a promotion
            // that was waiting on this endpoint rather than letting it pass without the receiver's answer.
            try connection.query("UPDATE webhook_endpoints SET deleted_at_ms = ?, enabled = 0, disabled_reason = 'deleted', updated_at_ms = ? WHERE id = ?",
                                 [.integer(StoreClock.milliseconds(time)), .integer(StoreClock.milliseconds(time)), .text(id)])
            try RelationalStore.cancelPendingDeliveries(of: id, at: time, on: connection, recording: &changes)
            try audit(connection, AuditEvent(at: time, by: principal, action: .webhookDelete, subject: id,
                                             before: JSONWriter.string(RelationalStore.auditDescription(of: before))))
        }
    }

    static func endpoint(_ id: String, on connection: any SQLConnection) throws -> WebhookEndpoint? {
        try connection.query("SELECT \(endpointColumns) FROM webhook_endpoints WHERE id = ? AND deleted_at_ms IS NULL", [.text(id)]).first.map(endpoint(from:))
    }

    /// Cancelling a required delivery fails the promotion waiting on it, so the change is recorded for promotion.
    static func cancelPendingDeliveries(of endpointID: String, at time: Date, on connection: any SQLConnection,
                                        recording changes: inout TransactionChanges) throws {
        try connection.query(
            "UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at_ms = NULL, updated_at_ms = ? WHERE endpoint_id = ? AND status = 'pending'",
            [.integer(StoreClock.milliseconds(time)), .text(endpointID)])
        if connection.changes > 0 { changes.record(.deliveriesCancelled(endpointID: endpointID)) }
    }

    static func values(of endpoint: WebhookEndpoint) -> [SQLValue] {
        [.text(endpoint.id), .text(endpoint.url), .text(endpoint.events.map(\.rawValue).joined(separator: ",")), .int(endpoint.required ? 1 : 0), .text(endpoint.secret),
         .int(endpoint.enabled ? 1 : 0), .optional(endpoint.disabledReason), .text(endpoint.createdBy),
         .integer(StoreClock.milliseconds(endpoint.createdAt)), .integer(StoreClock.milliseconds(endpoint.updatedAt)), .text(endpoint.format.rawValue),
         .optional(endpoint.tokenFile)]
    }

    static func endpoint(from row: SQLRow) throws -> WebhookEndpoint {
        let events = try row.string(2).split(separator: ",").map { try eventType(String($0)) }
        guard let format = WebhookFormat(rawValue: row.string(10)) else {
            throw StoreDataError("webhook endpoint row '\(row.string(0))' has an unknown format")
        }
        return WebhookEndpoint(id: row.string(0), url: row.string(1), events: events,
                               required: row.int(3) != 0, secret: row.string(4), enabled: row.int(5) != 0, disabledReason: row.optionalString(6),
                               createdBy: row.string(7), createdAt: StoreClock.date(row.int64(8)), updatedAt: StoreClock.date(row.int64(9)),
                               format: format, tokenFile: row.optionalString(11))
    }

    /// What the audit log keeps of an endpoint: never its secret.
    static func auditDescription(of endpoint: WebhookEndpoint) -> JSONValue {
        .object(["id": .string(endpoint.id), "url": .string(endpoint.url), "events": .strings(endpoint.events.map(\.rawValue)), "required": .bool(endpoint.required),
                 "enabled": .bool(endpoint.enabled), "disabled_reason": .optional(endpoint.disabledReason), "format": .string(endpoint.format.rawValue),
                 "token_file": .optional(endpoint.tokenFile)])
    }
}
