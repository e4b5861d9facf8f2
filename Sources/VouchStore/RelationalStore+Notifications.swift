import Foundation
import VouchDomain

extension RelationalStore {
    private static let notificationColumns = """
        id, kind, recipient, address, language, fix_key, revision, status, attempts, next_attempt_at_ms, last_error, created_at_ms, updated_at_ms
        """

    /// Queues notifications in the caller's transaction, but those of a kind their recipient switched off, and records
    /// them so the notification worker hears of them after COMMIT.
    static func enqueue(_ notifications: [MailNotification], on connection: any SQLConnection, recording changes: inout TransactionChanges) throws {
        var queued = 0
        for notification in notifications {
            let optedOut = try connection.query("SELECT 1 FROM notification_opt_outs WHERE recipient = ? AND kind = ?",
                                                [.text(notification.recipient), .text(notification.kind.rawValue)])
            guard optedOut.isEmpty else { continue }
            let created = StoreClock.milliseconds(notification.createdAt)
            try connection.query(
                """
                INSERT INTO notifications (id, kind, recipient, address, language, fix_key, revision, status, attempts, next_attempt_at_ms,
                                           created_at_ms, updated_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                """,
                [.text(notification.id), .text(notification.kind.rawValue), .text(notification.recipient), .optional(notification.address),
                 .text(notification.language), .optional(notification.fixKey), .optional(notification.revision),
                 .integer(StoreClock.milliseconds(notification.nextAttemptAt ?? notification.createdAt)), .integer(created), .integer(created)])
            queued += connection.changes
        }
        if queued > 0 { changes.record(.notificationsQueued(queued)) }
    }

    /// Everything about a tester's mail goes on withdrawal: what was queued or sent for her (which says which fixes she
    /// tested) and her choices of mail.
    static func forgetNotifications(of recipient: String, on connection: any SQLConnection) throws {
        try connection.query("DELETE FROM notifications WHERE recipient = ?", [.text(recipient)])
        try connection.query("DELETE FROM notification_opt_outs WHERE recipient = ?", [.text(recipient)])
    }

    public func claimNotifications(at now: Date, by owner: String, leaseUntil: Date, excluding: Set<String>, limit: Int) throws -> [MailNotification] {
        let skipLocked = storage.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let now = StoreClock.milliseconds(now)
        return try storage.writeLockingRows { connection in
            let due = try connection.query(
                """
                SELECT \(RelationalStore.notificationColumns) FROM notifications
                WHERE status = 'pending' AND next_attempt_at_ms <= ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_expires_at_ms <= ?)
                ORDER BY next_attempt_at_ms LIMIT ?\(skipLocked)
                """, [.integer(now), .text(owner), .integer(now), .int(limit + excluding.count)]
            ).map(RelationalStore.notification(from:)).filter { !excluding.contains($0.id) }.prefix(limit)
            for notification in due {
                try connection.query("UPDATE notifications SET lease_owner = ?, lease_expires_at_ms = ? WHERE id = ?",
                                     [.text(owner), .integer(StoreClock.milliseconds(leaseUntil)), .text(notification.id)])
            }
            return Array(due)
        }
    }

    public func nextNotificationDue() throws -> Date? {
        try storage.read { connection in
            try connection.query(
                """
                SELECT MIN(CASE WHEN lease_expires_at_ms > next_attempt_at_ms THEN lease_expires_at_ms ELSE next_attempt_at_ms END)
                FROM notifications WHERE status = 'pending'
                """).first?.optionalInt(0).map { StoreClock.date(Int64($0)) }
        }
    }

    public func recordNotificationAttempt(_ id: String, by owner: String, at time: Date, outcome: NotificationOutcome) throws -> MailNotification {
        let recorded = try write(by: .daemon) { connection, _ in
            let holder = try connection.query("SELECT lease_owner, status FROM notifications WHERE id = ?", [.text(id)]).first
            guard let holder else { throw LeaseLost(deliveryID: id, leased: "notification", cancelled: true) }
            guard holder.string(1) != "cancelled" else { throw LeaseLost(deliveryID: id, leased: "notification", cancelled: true) }
            guard holder.optionalString(0) == owner, holder.string(1) == "pending" else { throw LeaseLost(deliveryID: id, leased: "notification") }
            let at = StoreClock.milliseconds(time)
            switch outcome {
            case .sent:
                // Sent: the copy of her address has done its work.
                try connection.query(
                    """
                    UPDATE notifications SET status = 'sent', attempts = attempts + 1, next_attempt_at_ms = NULL, last_error = NULL, address = NULL,
                        lease_owner = NULL, lease_expires_at_ms = NULL, updated_at_ms = ? WHERE id = ?
                    """, [.integer(at), .text(id)])
            case .retry(let next, let error):
                try connection.query(
                    """
                    UPDATE notifications SET attempts = attempts + 1, next_attempt_at_ms = ?, last_error = ?, lease_owner = NULL,
                        lease_expires_at_ms = NULL, updated_at_ms = ? WHERE id = ?
                    """, [.integer(StoreClock.milliseconds(next)), .text(error), .integer(at), .text(id)])
            case .dead(let error):
                try connection.query(
                    """
                    UPDATE notifications SET status = 'dead', attempts = attempts + 1, next_attempt_at_ms = NULL, last_error = ?, address = NULL,
                        lease_owner = NULL, lease_expires_at_ms = NULL, updated_at_ms = ? WHERE id = ?
                    """, [.text(error), .integer(at), .text(id)])
            }
            guard let row = try connection.query("SELECT \(RelationalStore.notificationColumns) FROM notifications WHERE id = ?", [.text(id)]).first else {
                throw StoreError.notFound(kind: "notification", id: id)
            }
            return try RelationalStore.notification(from: row)
        }
        // The last copy of a withdrawn tester's address is gone from the row: from the file's old frames too, as her
        // withdrawal itself does.
        if recorded.kind == .withdrawalDone, recorded.status != .pending { try storage.purgeDeletedRows() }
        return recorded
    }

    public func notifications(status: MailNotification.Status?, after id: String?, limit: Int) throws -> [MailNotification] {
        try storage.read { connection in
            var sql = "SELECT \(RelationalStore.notificationColumns) FROM notifications WHERE id > ?"
            var values: [SQLValue] = [.text(id ?? "")]
            if let status {
                sql += " AND status = ?"
                values.append(.text(status.rawValue))
            }
            sql += " ORDER BY id LIMIT ?"
            values.append(.int(limit))
            return try connection.query(sql, values).map(RelationalStore.notification(from:)).map { notification in
                var shown = notification
                shown.address = nil
                return shown
            }
        }
    }

    public func optOut(recipient: String, kind: NotificationKind, at time: Date) throws -> Bool {
        try write(by: .daemon) { connection, _ in
            // An active tester, or a staff principal with a live token that carries an address.
            let status = try connection.query("SELECT status FROM testers WHERE id = ?", [.text(recipient)]).first?.string(0)
            let staff = try connection.query(
                "SELECT 1 FROM tokens WHERE COALESCE(principal, name) = ? AND tester_id IS NULL AND revoked_at_ms IS NULL AND email IS NOT NULL",
                [.text(recipient)])
            guard status == "active" || !staff.isEmpty else { return false }
            let at = StoreClock.milliseconds(time)
            try connection.query("INSERT INTO notification_opt_outs (recipient, kind, at_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                 [.text(recipient), .text(kind.rawValue), .integer(at)])
            try connection.query(
                """
                UPDATE notifications SET status = 'cancelled', address = NULL, next_attempt_at_ms = NULL, lease_owner = NULL,
                    lease_expires_at_ms = NULL, updated_at_ms = ?
                WHERE recipient = ? AND kind = ? AND status = 'pending'
                """, [.integer(at), .text(recipient), .text(kind.rawValue)])
            return true
        }
    }

    public func queueNotifications(_ plan: (NotificationRecipients) throws -> [MailNotification]) throws {
        // Usually every one is queued already (the plan is made again each time the criteria are looked at): then
        // a read is all it costs.
        let missing = try storage.read { connection in
            try plan(NotificationRecipients(connection: connection)).contains { notification in
                try connection.query("SELECT 1 FROM notifications WHERE id = ?", [.text(notification.id)]).isEmpty
            }
        }
        guard missing else { return }
        try write(by: .daemon) { connection, changes in
            try RelationalStore.enqueue(try plan(NotificationRecipients(connection: connection)), on: connection, recording: &changes)
        }
    }

    public func optOuts(of recipient: String) throws -> Set<NotificationKind> {
        try storage.read { connection in
            Set(try connection.query("SELECT kind FROM notification_opt_outs WHERE recipient = ?", [.text(recipient)])
                .compactMap { NotificationKind(rawValue: $0.string(0)) })
        }
    }

    static func notification(from row: SQLRow) throws -> MailNotification {
        guard let kind = NotificationKind(rawValue: row.string(1)) else {
            throw StoreDataError("notification kind '\(row.string(1))' is not one this vouchd knows")
        }
        return MailNotification(id: row.string(0), kind: kind, recipient: row.string(2), address: row.optionalString(3), language: row.string(4),
                                fixKey: row.optionalString(5), revision: row.optionalInt(6),
                                status: MailNotification.Status(rawValue: row.string(7)) ?? .dead, attempts: row.int(8),
                                nextAttemptAt: row.optionalInt(9).map { StoreClock.date(Int64($0)) }, lastError: row.optionalString(10),
                                createdAt: StoreClock.date(row.int64(11)), updatedAt: StoreClock.date(row.int64(12)))
    }
}
