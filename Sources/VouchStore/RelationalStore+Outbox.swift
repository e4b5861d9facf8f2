import Foundation
import VouchDomain
import VouchJSON

extension RelationalStore {
    private static let deliveryColumns = """
        d.id, d.event_id, e.type, d.endpoint_id, d.status, d.required, d.attempts, d.next_attempt_at_ms, d.last_status_code, d.last_error,
        d.created_at_ms, d.updated_at_ms
        """

    public func enqueue(_ events: [WebhookEvent], onlyTo endpointID: String?, by requester: Requester) throws -> [String] {
        try write(by: requester) { connection, changes in try RelationalStore.enqueue(events, onlyTo: endpointID, on: connection, recording: &changes) }
    }

    /// The enabled endpoints, or only the one named.
    static func enabledEndpoints(onlyTo endpointID: String?, on connection: any SQLConnection) throws -> [WebhookEndpoint] {
        var sql = "SELECT \(endpointColumns) FROM webhook_endpoints WHERE enabled = 1 AND deleted_at_ms IS NULL"
        var values: [SQLValue] = []
        if let endpointID {
            sql += " AND id = ?"
            values.append(.text(endpointID))
        }
        return try connection.query(sql, values).map(endpoint(from:))
    }

    /// Stores the events and one pending delivery per enabled endpoint that receives each, in the caller's transaction,
    /// and records the new deliveries so the delivery worker hears of them after COMMIT.
    /// - Returns: the new delivery ids.
    static func enqueue(_ events: [WebhookEvent], onlyTo endpointID: String?, on connection: any SQLConnection,
                        recording changes: inout TransactionChanges) throws -> [String] {
        guard !events.isEmpty else { return [] }
        return try enqueue(events, to: enabledEndpoints(onlyTo: endpointID, on: connection), ignoringSubscriptions: endpointID != nil,
                           on: connection, recording: &changes)
    }

    /// The same, to endpoints the caller already read.
    /// - Parameter ignoringSubscriptions: every endpoint gets every event, whatever it subscribed to (a test event sent to one).
    static func enqueue(_ events: [WebhookEvent], to endpoints: [WebhookEndpoint], ignoringSubscriptions: Bool, on connection: any SQLConnection,
                        recording changes: inout TransactionChanges) throws -> [String] {
        var deliveryIDs: [String] = []
        for event in events {
            let created = StoreClock.milliseconds(event.createdAt)
            try connection.query("INSERT INTO webhook_events (id, type, fix_key, revision, body, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)",
                                 [.text(event.id), .text(event.type.rawValue), .optional(event.fixKey), .optional(event.revision), .blob(event.body), .integer(created)])
            for endpoint in endpoints where ignoringSubscriptions || endpoint.receives(event.type) {
                let id = "dlv_" + event.id.dropFirst(4) + "_" + endpoint.id.dropFirst(3)
                try connection.query(
                    """
                    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, required, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                    VALUES (?, ?, ?, 'pending', ?, 0, ?, ?, ?)
                    """,
                    [.text(id), .text(event.id), .text(endpoint.id), .int(endpoint.required ? 1 : 0), .integer(created), .integer(created), .integer(created)])
                deliveryIDs.append(id)
            }
        }
        if !deliveryIDs.isEmpty { changes.record(.outboxRowsAdded(deliveryIDs.count)) }
        return deliveryIDs
    }

    public func claimDeliveries(at now: Date, by owner: String, leaseUntil: Date, excluding: Set<String>, limit: Int) throws -> [DeliveryJob] {
        // Rows another process is claiming at this moment are skipped rather than waited for; on SQLite the whole
        // file is locked for the write, and there is no other process anyway.
        let skipLocked = storage.dialect == .postgres ? " FOR UPDATE OF d SKIP LOCKED" : ""
        let now = StoreClock.milliseconds(now)
        return try storage.writeLockingRows { connection in
            let due = try connection.query(
                """
                SELECT \(RelationalStore.deliveryColumns), w.url, w.secret, e.body, w.format, w.token_file
                FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
                WHERE d.status = 'pending' AND d.next_attempt_at_ms <= ? AND w.enabled = 1
                    AND (d.lease_owner IS NULL OR d.lease_owner = ? OR d.lease_expires_at_ms <= ?)
                ORDER BY d.next_attempt_at_ms LIMIT ?\(skipLocked)
                """, [.integer(now), .text(owner), .integer(now), .int(limit + excluding.count)]
            ).compactMap { row -> DeliveryJob? in
                let delivery = try RelationalStore.delivery(from: row)
                guard !excluding.contains(delivery.id) else { return nil }
                return DeliveryJob(delivery: delivery, url: row.string(12), secret: row.string(13), body: row.blob(14),
                                   format: WebhookFormat(rawValue: row.string(15)) ?? .standard, tokenFile: row.optionalString(16))
            }.prefix(limit)
            for job in due {
                try connection.query("UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at_ms = ? WHERE id = ?",
                                     [.text(owner), .integer(StoreClock.milliseconds(leaseUntil)), .text(job.delivery.id)])
            }
            return Array(due)
        }
    }

    public func nextDeliveryDue() throws -> Date? {
        try storage.read { connection in
            // A leased delivery (being sent, here or by another vouchd) is due again only when its lease runs out.
            try connection.query(
                """
                SELECT MIN(CASE WHEN lease_expires_at_ms > next_attempt_at_ms THEN lease_expires_at_ms ELSE next_attempt_at_ms END)
                FROM webhook_deliveries WHERE status = 'pending'
                """).first?.optionalInt(0)
                .map { StoreClock.date(Int64($0)) }
        }
    }

    public func recordAttempt(_ attempt: DeliveryAttempt) throws -> WebhookDelivery {
        try write(by: .daemon) { connection, changes in
            guard var delivery = try RelationalStore.delivery(attempt.deliveryID, on: connection) else {
                throw StoreError.notFound(kind: "delivery", id: attempt.deliveryID)
            }
            if let owner = attempt.claimedBy {
                let holder = try connection.query("SELECT lease_owner FROM webhook_deliveries WHERE id = ?", [.text(delivery.id)]).first?.optionalString(0)
                guard delivery.status != .cancelled else { throw LeaseLost(deliveryID: delivery.id, cancelled: true) }
                guard holder == owner, delivery.status == .pending else { throw LeaseLost(deliveryID: delivery.id) }
            }
            try connection.query(
                """
                INSERT INTO webhook_attempts (delivery_id, number, at_ms, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (delivery_id, number) DO UPDATE SET at_ms = excluded.at_ms, status_code = excluded.status_code,
                    error = excluded.error, duration_ms = excluded.duration_ms
                """,
                [.text(delivery.id), .int(attempt.number), .integer(StoreClock.milliseconds(attempt.at)), .optional(attempt.statusCode),
                 .optional(attempt.error), .int(attempt.durationMilliseconds)])
            delivery.attempts = attempt.number
            delivery.lastStatusCode = attempt.statusCode
            delivery.lastError = attempt.error
            delivery.updatedAt = attempt.at
            switch attempt.decision {
            case .succeeded:
                delivery.status = .succeeded
                delivery.nextAttemptAt = nil
            case .retry(let time):
                delivery.status = .pending
                delivery.nextAttemptAt = time
            case .dead(let reason):
                delivery.status = .dead
                delivery.nextAttemptAt = nil
                delivery.lastError = reason
            case .disableEndpoint(let reason):
                delivery.status = .dead
                delivery.nextAttemptAt = nil
                delivery.lastError = reason
                try connection.query("UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at_ms = ? WHERE id = ?",
                                     [.text(reason), .integer(StoreClock.milliseconds(attempt.at)), .text(delivery.endpointID)])
                // Nothing more goes to an endpoint that asked to be left alone.
                try RelationalStore.cancelPendingDeliveries(of: delivery.endpointID, at: attempt.at, on: connection, recording: &changes)
                try audit(connection, AuditEvent(at: attempt.at, principal: "vouchd", action: .webhookDisable, subject: delivery.endpointID, note: reason))
            }
            try connection.query(
                """
                UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at_ms = ?, last_status_code = ?, last_error = ?, updated_at_ms = ?,
                    lease_owner = NULL, lease_expires_at_ms = NULL
                WHERE id = ?
                """,
                [.text(delivery.status.rawValue), .int(delivery.attempts), delivery.nextAttemptAt.map { .integer(StoreClock.milliseconds($0)) } ?? .null,
                 .optional(delivery.lastStatusCode), .optional(delivery.lastError), .integer(StoreClock.milliseconds(delivery.updatedAt)), .text(delivery.id)])
            if delivery.status != .pending { changes.record(.deliverySettled(delivery)) }
            return delivery
        }
    }

    public func deliveries(endpoint: String?, status: WebhookDelivery.Status?, after id: String?, limit: Int) throws -> [WebhookDelivery] {
        try storage.read { connection in
            var sql = "SELECT \(RelationalStore.deliveryColumns) FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id > ?"
            var values: [SQLValue] = [.text(id ?? "")]
            if let endpoint {
                sql += " AND d.endpoint_id = ?"
                values.append(.text(endpoint))
            }
            if let status {
                sql += " AND d.status = ?"
                values.append(.text(status.rawValue))
            }
            sql += " ORDER BY d.id LIMIT ?"
            values.append(.int(limit))
            return try connection.query(sql, values).map(RelationalStore.delivery(from:))
        }
    }

    public func deliveries(ofEvent eventID: String) throws -> [WebhookDelivery] {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.deliveryColumns) FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.event_id = ?",
                                 [.text(eventID)]).map(RelationalStore.delivery(from:))
        }
    }

    public func redeliver(_ id: String, by principal: Requester, at time: Date) throws -> WebhookDelivery {
        try write(by: principal) { connection, changes in
            guard let delivery = try RelationalStore.delivery(id, on: connection) else { throw StoreError.notFound(kind: "delivery", id: id) }
            guard delivery.status == .dead || delivery.status == .cancelled else {
                throw StoreConflict("delivery \(id) has the status \(delivery.status.rawValue); only dead or cancelled deliveries can be redelivered")
            }
            guard let endpoint = try RelationalStore.endpoint(delivery.endpointID, on: connection), endpoint.enabled else {
                throw StoreConflict("the webhook of delivery \(id) is disabled or deleted; enable it again before redelivering")
            }
            try connection.query(
                "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at_ms = ?, updated_at_ms = ? WHERE id = ?",
                [.integer(StoreClock.milliseconds(time)), .integer(StoreClock.milliseconds(time)), .text(id)])
            try audit(connection, AuditEvent(at: time, by: principal, action: .webhookRedeliver, subject: id))
            guard let updated = try RelationalStore.delivery(id, on: connection) else { throw StoreError.notFound(kind: "delivery", id: id) }
            changes.record(.deliveryRequeued(id: id))
            return updated
        }
    }

    static func delivery(_ id: String, on connection: any SQLConnection) throws -> WebhookDelivery? {
        try connection.query("SELECT \(deliveryColumns) FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = ?",
                             [.text(id)]).first.map(delivery(from:))
    }

    static func delivery(from row: SQLRow) throws -> WebhookDelivery {
        WebhookDelivery(id: row.string(0), eventID: row.string(1), eventType: try eventType(row.string(2)), endpointID: row.string(3),
                        status: WebhookDelivery.Status(rawValue: row.string(4)) ?? .dead, required: row.int(5) != 0, attempts: row.int(6),
                        nextAttemptAt: row.optionalInt(7).map { StoreClock.date(Int64($0)) }, lastStatusCode: row.optionalInt(8),
                        lastError: row.optionalString(9), createdAt: StoreClock.date(row.int64(10)), updatedAt: StoreClock.date(row.int64(11)))
    }
}

extension RelationalStore {
    /// An event type as stored; one this binary does not know means a damaged or foreign file.
    static func eventType(_ text: String) throws -> WebhookEventType {
        guard let type = WebhookEventType(rawValue: text) else {
            throw StoreDataError("webhook event type '\(text)' is not one this vouchd knows")
        }
        return type
    }
}
